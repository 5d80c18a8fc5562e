import { Type, type Static, type TString } from 'typebox';
import { NonEmptyText, Nullable, StringEnum, Text } from '../../schemas/common.js';

export const MAX_THEMES_PER_DOMAIN = 50;
export const LOGO_MAX_BYTES = 512 * 1024;
export const SETTINGS_ICON_MAX_BYTES = 64 * 1024;

export const COLOR_FIELDS = [
  'primaryButtonBackgroundColor',
  'primaryButtonForegroundColor',
  'primaryButtonBorderColor',
  'declineButtonBackgroundColor',
  'declineButtonForegroundColor',
  'declineButtonBorderColor',
  'buttonBackgroundColor',
  'buttonForegroundColor',
  'buttonBorderColor',
  'windowBackgroundColor',
  'windowForegroundColor',
  'windowLinkColor',
  'windowBorderColor',
  'iframeBlockerBackgroundColor',
  'iframeBlockerForegroundColor',
  'iframeBlockerButtonBackgroundColor',
  'iframeBlockerButtonForegroundColor',
] as const;
export type ColorField = (typeof COLOR_FIELDS)[number];

const Color = () => Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'a colour #rrggbb' });
const colorProperties = Object.fromEntries(COLOR_FIELDS.map((f) => [f, Color()])) as Record<ColorField, TString>;

/** base64 (or a data: URL) of a JPEG or PNG; checked by magic bytes and decoded size in the service. */
const Image = (maxBytes: number) =>
  Nullable(
    Type.String({
      maxLength: Math.ceil((maxBytes * 4) / 3) + 64,
      description: `base64 JPEG or PNG, at most ${maxBytes / 1024} KiB; null removes it`,
    }),
  );

/** Every Theme field except id, name and default. */
export const ThemeSettingsSchema = Type.Object({
  widgetBlocking: Type.Boolean({ description: 'dim and block the page until a decision' }),
  widgetButtons: Type.Array(StringEnum(['accept', 'decline', 'cpanel'] as const), {
    maxItems: 3,
    uniqueItems: true,
    description: 'ordered subset of accept, decline, cpanel',
  }),
  widgetCloseButton: Type.Boolean(),
  widgetPosition: StringEnum(['top', 'center', 'bottom', 'bottomleft', 'bottomright'] as const),
  widgetSwitchType: StringEnum(['checkbox', 'switch'] as const),
  showPurposesInMainWindow: Type.Boolean(),
  settingsAcceptAllButton: Type.Boolean(),
  settingsCheckAndUncheckAllButtons: Type.Boolean(),
  settingsFooter: Type.Boolean(),
  complyWithDoNotTrack: Type.Boolean(),
  enableOnlyInEu: Type.Boolean(),
  manipulationPrevention: Type.Boolean(),
  logoEnabled: Type.Boolean(),
  logoImage: Image(LOGO_MAX_BYTES),
  settingsIconEnabled: Type.Boolean(),
  settingsIconImage: Image(SETTINGS_ICON_MAX_BYTES),
  settingsIconTarget: StringEnum(['main', 'purpose'] as const),
  whitelabel: Type.Boolean(),
  ...colorProperties,
  customCss: Text(50_000, { description: 'extra CSS applied inside the widget\'s shadow root (root class .ccm-root)' }),
  customCssForIframeBlocker: Text(50_000),
});
export type ThemeSettings = Static<typeof ThemeSettingsSchema>;

/**
 * The default palette: every text colour on its background passes WCAG 2.2 AA (4.5:1), borders 3:1, and
 * accept and decline look the same (equal visual weight). Checked by themes.test.ts.
 */
export const DEFAULT_COLORS: Record<ColorField, string> = {
  primaryButtonBackgroundColor: '#1d4ed8',
  primaryButtonForegroundColor: '#ffffff',
  primaryButtonBorderColor: '#1d4ed8',
  declineButtonBackgroundColor: '#1d4ed8',
  declineButtonForegroundColor: '#ffffff',
  declineButtonBorderColor: '#1d4ed8',
  buttonBackgroundColor: '#ffffff',
  buttonForegroundColor: '#1d4ed8',
  buttonBorderColor: '#1d4ed8',
  windowBackgroundColor: '#ffffff',
  windowForegroundColor: '#1f2937',
  windowLinkColor: '#1d4ed8',
  windowBorderColor: '#6b7280',
  iframeBlockerBackgroundColor: '#f3f4f6',
  iframeBlockerForegroundColor: '#111827',
  iframeBlockerButtonBackgroundColor: '#1d4ed8',
  iframeBlockerButtonForegroundColor: '#ffffff',
};

export const THEME_DEFAULTS: ThemeSettings = {
  widgetBlocking: false,
  widgetButtons: ['accept', 'decline', 'cpanel'],
  widgetCloseButton: false,
  widgetPosition: 'bottom',
  widgetSwitchType: 'switch',
  showPurposesInMainWindow: false,
  settingsAcceptAllButton: true,
  settingsCheckAndUncheckAllButtons: false,
  settingsFooter: false,
  complyWithDoNotTrack: false,
  enableOnlyInEu: false,
  manipulationPrevention: true,
  logoEnabled: false,
  logoImage: null,
  settingsIconEnabled: true,
  settingsIconImage: null,
  settingsIconTarget: 'purpose',
  whitelabel: false,
  ...DEFAULT_COLORS,
  customCss: '',
  customCssForIframeBlocker: '',
};

export const CreateThemeBody = Type.Object(
  {
    name: NonEmptyText(100),
    default: Type.Optional(Type.Boolean({ description: 'true makes this the domain\'s default theme' })),
    ...Type.Partial(ThemeSettingsSchema).properties,
  },
  { additionalProperties: false },
);
export type CreateTheme = Static<typeof CreateThemeBody>;

export const UpdateThemeBody = Type.Partial(CreateThemeBody, { additionalProperties: false });
export type UpdateTheme = Static<typeof UpdateThemeBody>;

export const ThemeSchema = Type.Object({
  id: Type.String({ description: '7 lowercase hex characters' }),
  name: Type.String(),
  default: Type.Boolean(),
  ...ThemeSettingsSchema.properties,
});
export type Theme = Static<typeof ThemeSchema>;

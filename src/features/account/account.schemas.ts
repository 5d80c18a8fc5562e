import { Type, type Static } from 'typebox';
import { NonEmptyText } from '../../schemas/common.js';
import { ThemeSettingsSchema } from '../themes/themes.schemas.js';

/** At most this many account themes, and domains named in one theme's distribution. */
export const MAX_ACCOUNT_THEMES = 200;
export const MAX_DISTRIBUTION_DOMAINS = 5000;

const DomainIds = Type.Array(Type.String({ pattern: '^[0-9a-f]{7}$', description: 'a domain id' }), {
  maxItems: MAX_DISTRIBUTION_DOMAINS,
  uniqueItems: true,
  description: 'the domains (of any client) this theme is used on',
});

const distribution = {
  allDomains: Type.Boolean({ description: 'true: used on every domain of every client, present and future' }),
  domainIds: DomainIds,
};

export const CreateAccountThemeBody = Type.Object(
  {
    name: NonEmptyText(100),
    allDomains: Type.Optional(distribution.allDomains),
    domainIds: Type.Optional(distribution.domainIds),
    ...Type.Partial(ThemeSettingsSchema).properties,
  },
  { additionalProperties: false },
);
export type CreateAccountTheme = Static<typeof CreateAccountThemeBody>;

export const UpdateAccountThemeBody = Type.Partial(CreateAccountThemeBody, { additionalProperties: false });
export type UpdateAccountTheme = Static<typeof UpdateAccountThemeBody>;

export const AccountThemeSchema = Type.Object({
  id: Type.String({ description: '7 lowercase hex characters' }),
  name: Type.String(),
  ...distribution,
  ...ThemeSettingsSchema.properties,
});
export type AccountTheme = Static<typeof AccountThemeSchema>;

export const LanguageSchema = Type.String({ pattern: '^[a-z]{2,3}$', description: 'a language code such as de or en' });

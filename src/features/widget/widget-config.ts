import { TEXT_FIELDS, type T } from '../../../widget/src/text-fields.js';
import type { EmbeddingConfig, EmbeddingTexts, LocaleBundle, ThemeConfig, WidgetConfig } from '../../../widget/src/types.js';
import type { Features } from '../clients/clients.schemas.js';
import { LOCALES_WITHOUT_MORE_THAN_2_LANG } from '../clients/feature-gates.js';
import type { Embedding } from '../embeddings/embeddings.schemas.js';
import type { Domain } from '../domains/domains.schemas.js';
import { sharingHost } from '../domains/domain-name.js';
import { strictEmbeddings } from './strict-policy.js';
import { BUILTIN_LANGUAGES, HTML_TEXT_FIELDS, PURPOSE_IDS, SITE_TEXT_FIELDS, type LocaleTexts } from '../locales/builtin-texts.js';
import { fillLegalHtml } from '../locales/locale-html.js';
import { effectiveTexts, languageOf, type StandardTexts, type StoredTexts } from '../locales/locale-texts.js';
import type { Placeholder } from '../placeholders/placeholders.schemas.js';
import type { Theme } from '../themes/themes.schemas.js';

/**
 * The Locale fields the widget shows; the TCF labels stay on the server. The last four are placed where the
 * reference model's groups put them (docs/widget.md, "Languages"): the embedding's storage period in the
 * details layer, the "always show external content" switch, the provider details and "more information" in the
 * iframe blocker.
 */
/** The texts the widget shows, in the order it reads them (an array: widget/src/text-fields.ts, append only). */
export const WIDGET_TEXT_FIELDS = TEXT_FIELDS;

/** A legal page's entry in `lg`: the position of its link text (its `Url` and `HtmlCode` follow). */
const legal = (f: 'imprint' | 'privacyPolicy' | 'accessibility', direct: boolean, blank: boolean): [T, boolean, boolean] =>
  [TEXT_FIELDS.indexOf(f) as T, direct, blank];

const COLOR_VARS: Record<string, string> = {
  primaryButtonBackgroundColor: 'pb', primaryButtonForegroundColor: 'pf', primaryButtonBorderColor: 'pbo',
  declineButtonBackgroundColor: 'db', declineButtonForegroundColor: 'df', declineButtonBorderColor: 'dbo',
  buttonBackgroundColor: 'bb', buttonForegroundColor: 'bf', buttonBorderColor: 'bbo',
  windowBackgroundColor: 'wb', windowForegroundColor: 'wf', windowLinkColor: 'wl', windowBorderColor: 'wbo',
  iframeBlockerBackgroundColor: 'ib', iframeBlockerForegroundColor: 'if',
  iframeBlockerButtonBackgroundColor: 'ibb', iframeBlockerButtonForegroundColor: 'ibf',
};

export interface WidgetSource {
  clientApiKey: string;
  consentUrl: string;
  /** The instance serves video previews (VIDEO_PREVIEWS); unset counts as on. */
  videoPreviews?: boolean;
  domain: Domain;
  configRevision: number;
  legalRevision: number;
  embeddings: Embedding[];
  /** Active locales, oldest first. */
  locales: { name: string; stored: StoredTexts }[];
  placeholders: Placeholder[];
  theme: Theme;
  /** The visitor is known to be outside the area where consent is required (see gdpr-area.ts). */
  outsideGdprArea?: boolean;
  /** The legal pages onboarding applied (docs/onboarding.md): used where a locale has no URL of its own. */
  legalLinks?: { imprintUrl: string; privacyPolicyUrl: string };
  /** The agency's footer line (config WIDGET_FOOTER_TEXT / WIDGET_FOOTER_URL). */
  footer?: { text: string; url: string };
  /** The agency's standard texts by language (docs/account.md). */
  standardTexts?: StandardTexts;
  /** The client's feature flags (docs/widget.md, "Feature flags"); omitted: all on. */
  features?: Features;
  /** Found third-party scripts the agency ignored (docs/found-items.md): blockNewScripts lets them run. */
  ignoredScripts?: readonly string[];
}

export interface LanguageChoice {
  /** The snippet's `lang`, if any. */
  forced?: string | undefined;
  /**
   * The built-in language to offer beside the domain's locales: the browser's most preferred language when it
   * is built in and no active locale of the domain has it (widget.service.ts, `preferredBuiltin`); left out when
   * the domain's `offerBuiltinLanguages` is off and it has locales.
   */
  acceptLanguage?: string | undefined;
}

const isBuiltin = (name: string) => (BUILTIN_LANGUAGES as readonly string[]).includes(languageOf(name));

/**
 * The locales a page offers, the default first: the domain's active locales (oldest first); then, when the
 * domain offers built-in languages (`offerBuiltinLanguages`, README "Languages offered") or has no locale, the
 * built-in language the browser prefers if no locale has it, so a visitor is asked in a language they read;
 * without any of these, English. A forced `lang` that is not a domain locale but a built-in language is added,
 * so `&lang=fr` works on a domain without a French locale.
 */
export function availableLocales(
  source: Pick<WidgetSource, 'locales' | 'features'> & { domain: Pick<Domain, 'offerBuiltinLanguages'> },
  choice: LanguageChoice,
): string[] {
  const names = source.locales.map((l) => l.name);
  const covered = (lang: string) => names.some((n) => n === lang || languageOf(n) === languageOf(lang));
  const extra = choice.acceptLanguage;
  if (extra && isBuiltin(extra) && !covered(extra) && (names.length === 0 || source.domain.offerBuiltinLanguages)) {
    names.push(extra);
  }
  if (names.length === 0) names.push('en');
  const forced = choice.forced;
  if (forced && !names.includes(forced) && isBuiltin(forced)) names.push(forced);
  // Without moreThan2Lang the page offers two languages: the two oldest active locales (a forced language
  // beyond them is not offered, and the page shows the first).
  return source.features?.moreThan2Lang === false ? names.slice(0, LOCALES_WITHOUT_MORE_THAN_2_LANG) : names;
}

export function buildWidgetConfig(source: WidgetSource, choice: LanguageChoice): WidgetConfig {
  const { domain, theme } = source;
  const features = source.features;
  // Consent sharing off: each host asks for itself. The configuration is still served on the listed hosts
  // (widget.service.ts), so blocking keeps working there; only the hand-over, the shared cookie and the
  // exemption of the hosts' frames from the iframe blocker go.
  const sharing = features?.canUseConsentSharing !== false;
  const values = new Map(source.placeholders.map((p) => [p.name, p.value]));
  const fill = (s: string) => s.replace(/\{([A-Za-z0-9_-]{1,64})\}/g, (m, n: string) => values.get(n) ?? m);
  const names = availableLocales(source, choice);
  const stored = new Map(source.locales.map((l) => [l.name, l.stored]));
  const loc: Record<string, LocaleBundle> = {};
  // A built-in language offered beside the domain's locales takes its words from the built-in (or the agency's
  // standard) texts of that language, never the domain's texts in another language, but the site's legal
  // pages (URLs and HTML) from the default locale: they are the site's, and a banner without them is worse.
  const home = source.locales[0] && effectiveTexts(source.locales[0].name, source.locales[0].stored, source.standardTexts);
  for (const name of names) {
    const texts = effectiveTexts(name, stored.get(name), source.standardTexts);
    if (home && !stored.has(name)) for (const f of SITE_TEXT_FIELDS) texts[f] ||= home[f];
    texts.imprintUrl ||= source.legalLinks?.imprintUrl ?? '';
    texts.privacyPolicyUrl ||= source.legalLinks?.privacyPolicyUrl ?? '';
    loc[name] = localeBundle(name, texts, source.embeddings, fill);
    loc[name].n = autonym(name, names);
  }
  const used = new Set(source.embeddings.map((e) => e.purpose));
  return {
    d: domain.id,
    k: source.clientApiKey,
    u: source.consentUrl,
    // Previews are served only for domains that block iframes (features/video-previews): no URL, no request.
    vp: domain.blockIframes && source.videoPreviews !== false ? source.consentUrl.replace(/consent$/, `video-preview/${domain.id}/`) : '',
    r: source.configRevision,
    lr: source.legalRevision,
    p: domain.path,
    s: domain.consentStorage === 'cookie' ? 1 : domain.consentStorage === 'sessionStorage' ? 2 : 0,
    lt: domain.consentCookieLifetime,
    sc: domain.consentCookieSecure,
    rb: domain.consentResetBeforeDate ? Date.parse(`${domain.consentResetBeforeDate}T00:00:00Z`) : 0,
    rl: domain.consentResetOnLegalChange,
    de: domain.declineButtonEnforced,
    fl: choice.forced && names.includes(choice.forced) ? choice.forced : '',
    dl: names[0]!,
    loc,
    em: source.embeddings.map(embeddingConfig),
    pu: PURPOSE_IDS.filter((p) => p === '41ba25c' || used.has(p)),
    bm: lowerMarkers(domain.blockedScriptMarkers),
    am: lowerMarkers(domain.allowedScriptMarkers),
    bi: domain.blockIframes,
    iw: domain.iframeBlockMode === 'whitelist' ? 1 : 0,
    im: lowerMarkers(domain.iframeMarkers),
    th: themeConfig(theme, features),
    // White label needs a licence (reference model §6): only a domain that holds one of the client's licences
    // (`whitelabel`, bounded by whitelabelMaxCount) hides the footer; a theme's `whitelabel` alone does not.
    ft: domain.whitelabel ? '' : (source.footer?.text ?? 'Placet'),
    fu: domain.whitelabel ? '' : (source.footer?.url ?? ''),
    lg: [
      legal('imprint', domain.imprintDisplayMode === 'direct', domain.imprintOpenInNewTab),
      legal('privacyPolicy', domain.privacyPolicyDisplayMode === 'direct', domain.privacyPolicyOpenInNewTab),
      ...(domain.accessibilityLinkEnabled ? [legal('accessibility', domain.accessibilityDisplayMode === 'direct', false)] : []),
    ],
    sw: [domain.imprintShowWidget, domain.privacyPolicyShowWidget],
    du: domain.deleteUnknownCookies ? (domain.deleteUnknownCookiesForceReload ? 2 : 1) : 0,
    ns: [domain.blockNewScripts, domain.blockFirstPartyScripts, domain.blockInlineScripts],
    ig: domain.blockNewScripts ? lowerMarkers(source.ignoredScripts ?? []) : [],
    ri: domain.rememberIframeConsentPerDomain,
    cd: [
      domain.cookieDeclarationTableHeadingStartLevel,
      domain.cookieDeclarationTablePrependConsentChangeLink,
      domain.cookieDeclarationTablePrependIntroText,
    ],
    rm: domain.requireConsentForMandatoryEmbeddings,
    sd: sharing ? domain.consentSharingDomains.map(sharingHost) : [],
    sx: sharing && domain.consentSharingCrossDomain,
    dh: domain.name.replace(/:\d+$/, ''),
    cs: domain.appendConsentSwitchToIframes,
    ev: domain.evalInlineScripts,
    oe: theme.enableOnlyInEu && source.outsideGdprArea === true,
    st: domain.strictBlocking ? strictEmbeddings(domain, source.embeddings).map((e) => e.id) : [],
  };
}

function embeddingConfig(e: Embedding): EmbeddingConfig {
  return {
    i: e.id,
    n: e.name,
    p: e.purpose,
    sm: lowerMarkers(e.scriptMarkers),
    fm: lowerMarkers(e.iframeMarkers),
    h: e.scriptHtmlCode,
    g: e.scriptLoaderGroup,
    x: e.excludeFromUrls,
    xm: e.excludeUrlsMode === 'include' ? 1 : 0,
    c: e.googleConsentMode,
    a: e.assets.map((a) => [a.name, a.storageType]),
    hi: e.hideIframesUntilConsent,
  };
}

/** The translation for a locale: exact name, else one of the same language (`de` for `de_DE` and back). */
function translationFor<T>(map: Record<string, T>, locale: string): T | undefined {
  if (map[locale]) return map[locale];
  const lang = languageOf(locale);
  const key = Object.keys(map).find((k) => languageOf(k) === lang);
  return key ? map[key] : undefined;
}

function localeBundle(name: string, texts: LocaleTexts, embeddings: Embedding[], fill: (s: string) => string): LocaleBundle {
  const t = WIDGET_TEXT_FIELDS.map((f) => (HTML_TEXT_FIELDS.includes(f) ? fillLegalHtml(texts[f], fill) : fill(texts[f])));
  const pu = Object.fromEntries(
    PURPOSE_IDS.map((id) => [id, [fill(texts.purposeNames[id]), fill(texts.purposeDescriptions[id])] as [string, string]]),
  );
  const e: Record<string, EmbeddingTexts> = {};
  for (const emb of embeddings) {
    const tr = translationFor(emb.translations, name) ?? {};
    const pick = (k: keyof typeof tr & keyof Embedding) => fill((tr[k] as string | undefined) || (emb[k] as string));
    const assets = emb.assets.map((a) => {
      const at = translationFor(a.translations, name);
      return [a.name, fill(at?.lifetime || a.lifetime), fill(at?.description || a.description)] as [string, string, string];
    });
    e[emb.id] = [
      pick('name'),
      fill(emb.vendor),
      pick('description'),
      pick('privacyPolicyUrl'),
      pick('whatDataIsCollected'),
      pick('purposeOfDataCollection'),
      pick('legalBasis'),
      pick('placeOfProcessing'),
      fill(tr.blockedContentTitle ?? ''),
      fill(tr.blockedContentText ?? ''),
      fill(tr.blockedContentButtonText ?? ''),
      assets,
      // The embedding's storage period (embeddingLifetimeLabel): its assets' lifetimes, each once, computed here
      // so the widget only prints it.
      [...new Set(assets.map((a) => a[1]).filter((l) => l !== ''))].join(', '),
    ];
  }
  return { n: name, t, pu, e };
}

/**
 * A locale's name in its own language, as language switchers show it (a visitor looks for the language they
 * read, not its name in the current one): `Deutsch`, `Français`; with the region only when two offered locales
 * share the language (`Österreichisches Deutsch` beside `Deutsch (Deutschland)`). Computed here, where ICU has
 * every language's names, so the widget carries none.
 */
export function autonym(name: string, offered: readonly string[]): string {
  const shared = offered.filter((n) => languageOf(n) === languageOf(name)).length > 1;
  const tag = (shared ? name : languageOf(name)).replace('_', '-');
  try {
    const s = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? name;
    return s.charAt(0).toLocaleUpperCase(tag) + s.slice(1);
  } catch {
    return name; // not a tag ICU knows: the locale's own name
  }
}

/** A flag that is off leaves out what it gates: own logo, individual CSS, the iframe blocker's CSS. */
function themeConfig(theme: Theme, features: Features | undefined): ThemeConfig {
  const can = (flag: 'canUseOwnLogo' | 'canUseIndCSS' | 'canUseIframeCSS') => features?.[flag] !== false;
  return {
    id: theme.id,
    blocking: theme.widgetBlocking,
    buttons: theme.widgetButtons,
    close: theme.widgetCloseButton,
    position: theme.widgetPosition,
    switchType: theme.widgetSwitchType,
    purposesInMain: theme.showPurposesInMainWindow,
    settingsAcceptAll: theme.settingsAcceptAllButton,
    checkAll: theme.settingsCheckAndUncheckAllButtons,
    footer: theme.settingsFooter,
    dnt: theme.complyWithDoNotTrack,
    mp: theme.manipulationPrevention,
    logo: can('canUseOwnLogo') && theme.logoEnabled && theme.logoImage ? theme.logoImage : '',
    icon: theme.settingsIconEnabled,
    iconImage: theme.settingsIconImage ?? '',
    iconTarget: theme.settingsIconTarget,
    colors: Object.fromEntries(Object.entries(COLOR_VARS).map(([field, v]) => [v, theme[field as keyof Theme] as string])),
    css: can('canUseIndCSS') ? theme.customCss : '',
    iframeCss: can('canUseIframeCSS') ? theme.customCssForIframeBlocker : '',
  };
}

/**
 * Markers are matched case-insensitively (issue #15: real tags say `gtag/js?id=G-XXXX`, `en_US`, while
 * markers are often written in lower case). They are lower-cased here, once, so the widget only lower-cases
 * the URL or script text it checks (widget/src/scripts.ts, `has`). Empty markers are dropped: one would
 * match everything.
 */
function lowerMarkers(markers: readonly string[]): string[] {
  return markers.filter((m) => m !== '').map((m) => m.toLowerCase());
}

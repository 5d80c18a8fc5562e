/**
 * The configuration the service inlines into the widget (one request, no round trip before the banner).
 * Shared by the server's builder (src/features/widget/widget-config.ts) and the widget. Keys are short
 * where they repeat per embedding; a locale's texts are an array in the order of text-fields.ts.
 */
import type { T } from './text-fields.js';

export interface WidgetConfig {
  /** domain id */
  d: string;
  /** client's public api key */
  k: string;
  /** consent endpoint URL */
  u: string;
  /**
   * Video previews (docs/widget.md, "Video previews"): the domain's preview endpoint, to which the widget
   * appends `<provider>/<videoId>`; '' when the instance serves none (VIDEO_PREVIEWS=false) or the domain
   * does not block iframes.
   */
  vp: string;
  /** configuration revision */
  r: number;
  /** legal revision */
  lr: number;
  /**
   * SHA-256 of the snapshot of this configuration (docs/consent-log.md, "Snapshots"), sent with each decision.
   * Added by the widget service after building the rest, so the server's builder leaves it out.
   */
  sh?: string;
  /** domain path: the key inside the stored entry */
  p: string;
  /** consent storage: 0 localStorage, 1 cookie, 2 sessionStorage */
  s: 0 | 1 | 2;
  /** consent lifetime in days; 0 = until the browser closes */
  lt: number;
  /** Secure flag for the consent cookie */
  sc: boolean;
  /** decisions made before this time (ms) are void; 0 = none */
  rb: number;
  /** a legal revision change voids decisions */
  rl: boolean;
  /** a decline button whenever accept-all is shown */
  de: boolean;
  /** locale forced by the snippet's lang, or '' */
  fl: string;
  /** default locale */
  dl: string;
  /** texts per available locale */
  loc: Record<string, LocaleBundle>;
  /** embeddings (active only) */
  em: EmbeddingConfig[];
  /** purpose ids to show, necessary first */
  pu: string[];
  /** blockedScriptMarkers: never run */
  bm: string[];
  /** allowedScriptMarkers: never blocked */
  am: string[];
  /** iframe blocker on */
  bi: boolean;
  /** iframe block mode: 1 whitelist (block everything not allowed), 0 blacklist */
  iw: 0 | 1;
  /** domain iframeMarkers (allow list in whitelist mode, block list in blacklist mode) */
  im: string[];
  /** theme */
  th: ThemeConfig;
  /** the footer line: the agency's text ('' hidden: a white-label domain, or the agency hides it) and link */
  ft: string;
  fu: string;
  /** IAB TCF (tcfEnabled domains only): loads the TCF chunk */
  tcf?: TcfConfig;
  /** legal links: [Locale field (imprint, privacyPolicy, accessibility), shown inside the widget (direct), new tab] */
  lg: [T, boolean, boolean][];
  /** show the banner on the imprint / privacy page */
  sw: [boolean, boolean];
  /** deleteUnknownCookies: 0 off, 1 delete first-party cookies no embedding declares, 2 and reload once */
  du: 0 | 1 | 2;
  /** scripts no embedding claims: [blockNewScripts, blockFirstPartyScripts, blockInlineScripts] */
  ns: [boolean, boolean, boolean];
  /** found scripts the agency ignored (host + path, lower case): blockNewScripts lets them run (docs/found-items.md) */
  ig: string[];
  /** rememberIframeConsentPerDomain */
  ri: boolean;
  /** cookie declaration: [heading start level, prepend change link, prepend intro text] */
  cd: [number, boolean, boolean];
  /** requireConsentForMandatoryEmbeddings: necessary embeddings also wait for consent */
  rm: boolean;
  /** consentSharingDomains: registrable domains whose subdomains share the consent cookie */
  sd: string[];
  /** consentSharingCrossDomain: the consent travels in the URL fragment to the other hosts of the set */
  sx: boolean;
  /** the domain's own host name (without port), a member of the sharing set */
  dh: string;
  /** appendConsentSwitchToIframes */
  cs: boolean;
  /** evalInlineScripts: unblocked inline scripts run through a global eval */
  ev: boolean;
  /** enableOnlyInEu and a visitor from outside the area: everything runs without a banner until they choose */
  oe: boolean;
  /** strictBlocking: the embeddings the snippet's Content-Security-Policies block until accepted (strict.ts) */
  st: string[];
  /** Added by the service to each delivery (docs/widget.md): the widget token sent with every decision. */
  tk?: string;
  /**
   * Blocked mode (fail closed, docs/widget.md): the reason the widget cannot serve this page normally. Every
   * embedding stays declined, no banner, nothing recorded; the reason goes to the console.
   */
  bl?: string;
}

export interface EmbeddingConfig {
  /** id */
  i: string;
  /** the embedding's own name (untranslated), for the `ccm19_<name>` keys of the dataLayer */
  n: string;
  /** purpose id */
  p: string;
  /** script markers */
  sm: string[];
  /** iframe markers */
  fm: string[];
  /** scriptHtmlCode ('' none) */
  h: string;
  /** scriptLoaderGroup ('' none) */
  g: string;
  /** excludeFromUrls and mode (1 = include: only there) */
  x: string[];
  xm: 0 | 1;
  /** Google Consent Mode types granted */
  c: string[];
  /** asset names and storage types, for deletion on withdrawal: [name, storageType] */
  a: [string, string][];
  /** hideIframesUntilConsent */
  hi: boolean;
}

/** Per locale: UI texts and per-embedding texts. */
export interface LocaleBundle {
  /** the locale's name in its own language, for the language switcher (`Deutsch`, `Français`) */
  n: string;
  /** the texts, by position in TEXT_FIELDS (text-fields.ts) */
  t: string[];
  /** purpose id → [name, description] */
  pu: Record<string, [string, string]>;
  /** embedding id → texts */
  e: Record<string, EmbeddingTexts>;
}

/** [name, vendor, description, privacyUrl, data, purposeOfProcessing, legalBasis, place, blockedTitle, blockedText, blockedButton, assets, lifetimes] */
export type EmbeddingTexts = [
  string, string, string, string, string, string, string, string, string, string, string,
  [string, string, string][],
  /** the assets' lifetimes, each once, joined with ", " (shown with embeddingLifetimeLabel) */
  string,
];

export interface ThemeConfig {
  /** theme id */
  id: string;
  blocking: boolean;
  buttons: string[];
  close: boolean;
  position: string;
  switchType: string;
  purposesInMain: boolean;
  settingsAcceptAll: boolean;
  checkAll: boolean;
  footer: boolean;
  dnt: boolean;
  mp: boolean;
  logo: string;
  icon: boolean;
  iconImage: string;
  iconTarget: string;
  colors: Record<string, string>;
  css: string;
  iframeCss: string;
}

/**
 * IAB TCF settings of a tcfEnabled domain (docs/tcf.md). Only the TCF chunk (widget/src/tcf) reads them;
 * the base widget only loads the chunk when they are present.
 */
export interface TcfConfig {
  /** CMP id and version */
  c: number;
  cv: number;
  /** GVL version the selection below was computed from */
  v: number;
  /** vendor ids offered to the visitor, ascending */
  vs: number[];
  /** special features offered for opt-in */
  sf: number[];
  /** URL of the domain's GVL (vendors trimmed to `vs`), served by Placet; `?lang=` adds translations */
  g: string;
  /**
   * The first layer's facts per available locale (names in that language where the IAB translates them), so the
   * first layer opens without waiting for the domain's GVL (docs/tcf.md, "Script → banner").
   */
  f: Record<string, TcfFirstLayer>;
  /** publisher restrictions: [vendor id, purpose id, restriction type (0 not allowed, 1 require consent, 2 require LI)] */
  pr?: [number, number, number][];
  /** Google Additional Consent provider ids; absent when tcfGoogleAdditionalConsentMode is off */
  ac?: number[];
  /** URL macros: [tcfUrlMacroAutoAppend, tcfUrlMacroHandling] */
  mu: [boolean, boolean];
  /** embeddings linked to a GVL vendor: embedding id → [vendor id, TCF purposes] */
  el: Record<string, [number, number[]]>;
  /** the Locale's TCF texts (tcfVendorIntroText …) per available locale */
  t?: Record<string, Record<string, string>>;
}

/** What the TCF first layer lists, in one language. */
export interface TcfFirstLayer {
  /** GVL language of these names (the TC string's consentLanguage) */
  l: string;
  /** stacks shown instead of the purposes and special features they cover: [name, description] */
  s: [string, string][];
  /** purposes not covered by a stack */
  p: string[];
  /** special purposes and features the offered vendors use */
  sp: string[];
  fe: string[];
  /** special features asked for, not covered by a stack */
  sf: string[];
}

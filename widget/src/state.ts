/**
 * The widget's one state object, and the configuration the service inlined. Every module reads and writes
 * the visitor's state here (in the manner of orestbida/cookieconsent's `core/global.js`); a module keeps
 * to itself only what no other module touches.
 */
import type { T } from './text-fields.js';
import type { WidgetConfig } from './types.js';

declare const __PLACET_CONFIG__: WidgetConfig;
/** True in the variant served to domains with consentSharingCrossDomain (widget/build.ts); false drops the hand-over. */
declare global {
  const __PLACET_SX__: boolean;
  /** True in the variant served to tcfEnabled domains (widget/build.ts); false drops the TCF bridge. */
  const __PLACET_WITH_TCF__: boolean;
  /** True in the variant served to domains with strictBlocking (widget/build.ts); false drops strict.ts's work. */
  const __PLACET_STRICT__: boolean;
  /**
   * True in the variant served to domains with an option most leave off, evalInlineScripts, deleteUnknownCookies or
   * appendConsentSwitchToIframes (widget/build.ts); false drops their code.
   */
  const __PLACET_OPT__: boolean;
}

/** The domain's configuration (the service replaces the token with JSON). */
export const c = __PLACET_CONFIG__;
export const em = c.em;
export const th = c.th;

/** The stored decision of one domain path (the reference product's storage format, generation 2). */
export interface Stored {
  gen: 2;
  ucid: string;
  consent: boolean;
  embeddings: string[];
  created: string;
  updated: string;
  clickedButton: string;
  lang: string;
  rev: number;
  lrev: number;
  iframeConsentDomains?: string[];
}

export type Win = Window & Record<string, unknown> & { dataLayer?: unknown[] };
export const w = window as unknown as Win;
export const doc = document;
export const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
export const NECESSARY = '41ba25c';
export const gpc = nav.globalPrivacyControl === true;
export const dnt = nav.doNotTrack == '1';

const fields = {
  /** The decision as last written, also the fallback when storage is refused. */
  _mem: '',
  /** A valid decision exists (not voided by age, revision or legal revision). */
  decided: false,
  /** Ids of the embeddings accepted now (necessary ones included). */
  acc: new Set<string>(),
  /** The page address once a hand-over token is removed from it. */
  _here: '',
  /** Scripts and iframes the widget itself inserted or let load: never checked again. */
  _approved: new WeakSet<Node>(),
  /** The locale shown. */
  lang: '',
  /** The open layer: 0 none (icon), 1 banner, 2 settings, 3 details, 4 a legal text. */
  layer: 0,
  /** The embeddings ticked in the settings, not yet saved. */
  _sel: new Set<string>(),
};

/** The state set later, at start or by a decision: absent from the literal (it would only spell out `undefined`). */
interface Later {
  /** enableOnlyInEu and a visitor from outside the area, without a decision: everything runs (options variant). */
  _implicit?: boolean;
  /** The legal text shown in layer 4 (options variant), and the layer it was opened from: set before it opens. */
  _legal?: T;
  _legalFrom?: number;
  /** The widget's own <script> element (never blocked). */
  _own?: HTMLOrSVGScriptElement | null;
  /** Where focus goes back to when the widget closes. */
  _returnTo?: Element | null;
  /** Where the decision is kept: a Storage, null for the cookie, undefined when storage is refused (memory). */
  _store?: Storage | null;
  /** This visitor's decision for this domain path, if any. */
  _stored?: Stored;
  /** A new visitor's id, made ahead of the first decision (`ucid` in storage.ts). */
  _u?: string;
  /** The gtag function taken at start: the page's, or one that feeds dataLayer. */
  _gtag: (...a: unknown[]) => void;
  /** The widget's host element (an open shadow root) and the panel inside it that shows the layer (set at start). */
  _host: HTMLElement;
  _panel: HTMLElement;
  /** TCF: the TC string and Google AC string of the decision being recorded (set by the TCF chunk). */
  tc?: string;
  ac?: string;
}

export const S = fields as typeof fields & Later;

/** enableOnlyInEu's consent without a banner (`_implicit`): set in the options variant only, so the base build drops every branch on it. */
export const implicit = () => __PLACET_OPT__ && !!S._implicit;

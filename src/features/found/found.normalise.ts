/**
 * What a report may store, decided on the server whatever the widget sent (docs/found-items.md, "What is
 * stored"): no query strings or fragments (they carry ids, e-mail addresses, campaign tokens), no cookie or
 * storage values, only names; Placet's own keys and scripts are never "found".
 */
import { FOUND_LIMITS } from './found.schemas.js';
import type { FoundKind } from './found.table.js';

/** Keys the widget itself writes (widget/src/storage.ts, ui/layers.ts, found/index.ts). */
const OWN_NAMES = /^(ccm_consent|ccm-x.*|placet_found_.*)$/;

/** A cookie or storage name: printable ASCII without separators, as browsers send them. */
const NAME = /^[\x21-\x7e]+$/;

/** The page as stored: origin and path only. */
export function pageWithoutQuery(url: URL): string {
  return `${url.origin}${url.pathname}`.slice(0, FOUND_LIMITS.urlLength);
}

/**
 * The stored key of one reported item, or undefined when it is not a third-party script or frame, not a
 * plain name, or one of Placet's own. `page` is the reporting page; `placetOrigin` Placet's public origin.
 */
export function normaliseItem(kind: FoundKind, value: string, page: URL, placetOrigin: string): string | undefined {
  if (kind === 'script' || kind === 'iframe') {
    let url: URL;
    try {
      url = new URL(value, page);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    // Same host: the site's own code, which blockFirstPartyScripts governs; not "found" third-party content.
    if (url.host === page.host || url.origin === placetOrigin) return undefined;
    return `${url.host}${url.pathname}`.slice(0, FOUND_LIMITS.keyLength);
  }
  if (value.length > 200 || !NAME.test(value) || OWN_NAMES.test(value)) return undefined;
  return value;
}

/** `*` is a wildcard in asset names (assets.schemas.ts), as in the widget's cookie deletion. */
const pattern = (name: string) =>
  new RegExp(`^${name.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

export interface Declared {
  /** lower-cased script markers of every active embedding and the domain's allowed/blocked lists */
  scriptMarkers: string[];
  /** lower-cased iframe markers of every active embedding and the domain */
  iframeMarkers: string[];
  /** asset names (patterns) by storage type */
  assets: { name: string; storageType: string }[];
}

/** Whether an item is declared, by the rules the widget applies (markers are substrings; names are patterns). */
export function isDeclared(kind: FoundKind, value: string, declared: Declared): boolean {
  if (kind === 'script' || kind === 'iframe') {
    const lower = value.toLowerCase();
    const markers = kind === 'script' ? declared.scriptMarkers : declared.iframeMarkers;
    return markers.some((m) => m !== '' && lower.includes(m));
  }
  return declared.assets.some((a) => a.storageType === kind && pattern(a.name).test(value));
}

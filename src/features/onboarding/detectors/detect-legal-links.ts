import type { Anchor } from './html.js';
import { isSameSite } from '../site.js';

/**
 * Finds the imprint and the privacy policy among a site's links by link text and URL, in English,
 * German, French, Spanish, Italian and Dutch. Text counts more than the URL, a link whose whole text is
 * the keyword most; links to another site count less (a privacy policy can live elsewhere, an imprint
 * rarely does).
 */
export type LegalKind = 'imprint' | 'privacy';

const TEXT: Record<LegalKind, RegExp[]> = {
  imprint: [
    /\bimpressum\b/, /\bimprint\b/, /\blegal notice\b/, /\bsite notice\b/, /\blegal (information|info|disclosure)\b/,
    /\banbieterkennzeichnung\b/, /\bmentions l[ée]gales\b/, /\binformations l[ée]gales\b/, /\baviso legal\b/,
    /\bnota legal\b/, /\binformaci[oó]n legal\b/, /\bnote legali\b/, /\binformazioni legali\b/, /\bcolophon\b/,
    /\bcolofon\b/, /\bjuridische informatie\b/, /\bwettelijke informatie\b/,
  ],
  privacy: [
    /\bprivacy\b/, /\bdata protection\b/, /datenschutz/, /\bpolitique de confidentialit/, /\bconfidentialit[ée]/,
    /\bvie priv[ée]e\b/, /\bdonn[ée]es personnelles\b/, /\bprivacidad\b/, /\bprotecci[oó]n de datos\b/,
    /\briservatezza\b/, /\bprotezione dei dati\b/, /\bprivacyverklaring\b/, /\bprivacybeleid\b/,
    /\bgegevensbescherming\b/, /\bpersonal data\b/,
  ],
};

const URL_WORDS: Record<LegalKind, RegExp> = {
  imprint: /impressum|imprint|legal-?notice|site-?notice|mentions-?legales|aviso-?legal|nota-?legal|note-?legali|informazioni-?legali|colofon|colophon|juridische-?informatie/,
  privacy: /privacy|datenschutz|data-?protection|confidentialite|vie-?privee|donnees-?personnelles|privacidad|proteccion-?de-?datos|riservatezza|privacyverklaring|privacybeleid|gegevensbescherming|dsgvo|gdpr/,
};

/** Links about settings are the cookie banner's, not the policy page. */
const SETTINGS = /settings|einstellungen|preferences|pr[ée]f[ée]rences|param[eè]tres|configuraci[oó]n|impostazioni|instellingen|opt-?out/;

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const normalise = (text: string) => text.toLowerCase().normalize('NFC').replace(/\s+/g, ' ').trim();

/** How strongly one link looks like the given legal page (0 = not at all). */
export function legalScore(anchor: Anchor, kind: LegalKind, site?: URL): number {
  let url: URL;
  try {
    url = new URL(anchor.href);
  } catch {
    return 0;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 0;
  const text = normalise(anchor.text);
  let score = 0;
  const hit = TEXT[kind].find((re) => re.test(text));
  if (hit) score += text.replace(hit, '').replace(/[\s&|·,:/-]+/g, '').length <= 12 ? 10 : 6;
  if (URL_WORDS[kind].test(safeDecode(url.pathname + url.search).toLowerCase())) score += 4;
  if (score === 0) return 0;
  if (SETTINGS.test(text)) return 0;
  if (site) score += isSameSite(url.hostname, site.hostname) ? 2 : -3;
  return Math.max(score, 0);
}

export function legalKindOf(anchor: Anchor): LegalKind | undefined {
  return (['imprint', 'privacy'] as const).find((kind) => legalScore(anchor, kind) > 0);
}

export interface LegalLinks {
  imprintUrl: string | null;
  privacyPolicyUrl: string | null;
}

export function detectLegalLinks(anchors: readonly Anchor[], site: URL): LegalLinks {
  const best = (kind: LegalKind): string | null => {
    let top: { href: string; score: number } | undefined;
    for (const anchor of anchors) {
      const score = legalScore(anchor, kind, site);
      if (score > 0 && (!top || score > top.score)) top = { href: anchor.href.replace(/#.*$/, ''), score };
    }
    return top?.href ?? null;
  };
  return { imprintUrl: best('imprint'), privacyPolicyUrl: best('privacy') };
}

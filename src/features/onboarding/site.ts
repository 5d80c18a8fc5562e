import net from 'node:net';
import { bareHost } from './target-guard.js';

/**
 * Second-level suffixes under which registrations happen (co.uk, com.au, …). Not the Public Suffix List:
 * a short list that gets the common cases right, which is all a same-site guess for crawling needs.
 */
const TWO_LEVEL_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'com.au', 'net.au', 'org.au', 'edu.au',
  'gov.au', 'co.nz', 'org.nz', 'co.jp', 'ne.jp', 'or.jp', 'com.br', 'com.cn', 'com.tr', 'co.za', 'com.mx', 'co.in',
  'co.kr', 'com.ar', 'com.sg', 'com.hk', 'com.tw', 'co.il', 'com.pl', 'co.at', 'or.at', 'gv.at', 'com.es', 'com.pt',
]);

/** The registrable domain ("site") of a host: `shop.example.co.uk` → `example.co.uk`; IPs stay as they are. */
export function siteOf(hostname: string): string {
  const host = bareHost(hostname);
  if (net.isIP(host) !== 0) return host;
  const labels = host.split('.');
  const keep = labels.length >= 3 && TWO_LEVEL_SUFFIXES.has(labels.slice(-2).join('.')) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

export const isSameSite = (a: string, b: string) => siteOf(a) === siteOf(b);

const effectivePort = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
const SKIPPED_FILES =
  /\.(pdf|zip|gz|tgz|rar|7z|exe|dmg|msi|apk|iso|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp3|mp4|m4a|wav|ogg|webm|avi|mov|mkv|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|txt|csv|xlsx?|docx?|pptx?|odt|ods|ics|vcf)$/i;

/**
 * Whether the crawler follows a link: http(s), same site as the start page, the same port unless both
 * use their scheme's default, and not a file download.
 */
export function isCrawlable(url: URL, start: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  if (!isSameSite(url.hostname, start.hostname)) return false;
  const defaults = (u: URL) => u.port === '';
  if (!(defaults(url) && defaults(start)) && effectivePort(url) !== effectivePort(start)) return false;
  return !SKIPPED_FILES.test(url.pathname);
}

/** The URL as the crawler keys it: without fragment. */
export function pageKey(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

/**
 * Browser and OS families for the statistics' split (reference model §4.10, "OS/browser split"), from the
 * User-Agent header of a widget load. Only the family is counted; the header is neither stored nor logged.
 * A dozen patterns, checked in order (Edge and Opera say "Chrome" too, Chrome says "Safari"), are enough for a
 * family split; a full parser (ua-parser-js is AGPL since v2) would be a large dependency for this.
 */
const BROWSERS: readonly [string, RegExp][] = [
  ['edge', /\bEdgA?\//],
  ['opera', /\bOPR\/|\bOpera\b/],
  ['samsung', /\bSamsungBrowser\//],
  ['firefox', /\bFirefox\/|\bFxiOS\//],
  ['chrome', /\bChrome\/|\bCriOS\//],
  ['safari', /\bVersion\/[\d.]+.*\bSafari\//],
];
const SYSTEMS: readonly [string, RegExp][] = [
  ['ios', /\b(iPhone|iPad|iPod)\b/],
  ['android', /\bAndroid\b/],
  ['windows', /\bWindows\b/],
  ['chromeos', /\bCrOS\b/],
  ['macos', /\bMacintosh\b|\bMac OS X\b/],
  ['linux', /\bLinux\b/],
];

export const BROWSER_FAMILIES = [...BROWSERS.map(([f]) => f), 'other'] as const;
export const OS_FAMILIES = [...SYSTEMS.map(([f]) => f), 'other'] as const;

const familyOf = (table: readonly [string, RegExp][], ua: string) => table.find(([, re]) => re.test(ua))?.[0] ?? 'other';

export function uaFamilies(userAgent: string | undefined): { browser: string; os: string } {
  const ua = (userAgent ?? '').slice(0, 512);
  return { browser: familyOf(BROWSERS, ua), os: familyOf(SYSTEMS, ua) };
}

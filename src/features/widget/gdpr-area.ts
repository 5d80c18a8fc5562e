/**
 * Where a theme's `enableOnlyInEu` shows the banner: the countries whose law asks for consent before
 * non-essential cookies. Decided (the reference model says "EU"): the EU's 27 members with their
 * outermost regions and Åland, which have ISO codes of their own, the rest of the EEA (GDPR applies
 * there too), and the United Kingdom and Switzerland, whose UK GDPR/PECR and revFADP ask the same.
 */
const GDPR_AREA = new Set([
  // EU
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU',
  'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
  // EU territory with codes of its own: Åland, French Guiana, Guadeloupe, Martinique, Réunion, Mayotte, Saint-Martin
  'AX', 'GF', 'GP', 'MQ', 'RE', 'YT', 'MF',
  // EEA, United Kingdom, Switzerland
  'IS', 'LI', 'NO', 'GB', 'CH',
]);

/**
 * Whether the visitor's country, as a trusted proxy reported it, lies outside that area. Anything that is
 * not a plain two-letter code (no header, Cloudflare's `XX` "unknown" and `T1` "Tor") counts as inside:
 * when in doubt, the visitor is asked.
 */
export function outsideGdprArea(country: string | undefined): boolean {
  const code = (country ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && code !== 'XX' && !GDPR_AREA.has(code);
}

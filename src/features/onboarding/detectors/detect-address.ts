/**
 * Reads the operator's postal address from the text of an imprint page: finds a "zip code + city" line
 * (European, Dutch, British and US forms), takes the street from the line above it and the company from
 * the nearest line above that carries a legal form (GmbH, Ltd, SARL, S.L., S.r.l., B.V., …) or, failing
 * that, the line right above the street. Lines may also be separated by commas or bullets.
 */
export interface Address {
  company: string | null;
  street: string | null;
  zipCode: string | null;
  city: string | null;
}

const CITY = String.raw`\p{Lu}[\p{L}'’.\- ]*?(?: \([\p{L} ]+\))?`;
const ZIP_CITY: { re: RegExp; zip: number; city: number }[] = [
  // 1012 AB Amsterdam
  { re: new RegExp(String.raw`^(\d{4}\s?[A-Z]{2})\s+(${CITY})$`, 'u'), zip: 1, city: 2 },
  // 10115 Berlin, D-10115 Berlin, 1010 Wien, 75001 Paris, 28001 Madrid, 00184 Roma, CH-8001 Zürich
  { re: new RegExp(String.raw`^(?:[A-Z]{1,3}\s?[-–]\s?)?(\d{4,5})\s+(${CITY})$`, 'u'), zip: 1, city: 2 },
  // London SW1A 1AA
  { re: new RegExp(String.raw`^(${CITY})\s+([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})$`, 'u'), zip: 2, city: 1 },
  // Springfield, IL 62701 (the comma split leaves "IL 62701" after "Springfield")
  { re: new RegExp(String.raw`^(${CITY}),?\s+[A-Z]{2}\s+(\d{5}(?:-\d{4})?)$`, 'u'), zip: 2, city: 1 },
];
const US_STATE_ZIP = /^[A-Z]{2}\s+(\d{5}(?:-\d{4})?)$/;

const STREET_WORDS =
  /(stra(ß|ss)e|str\.|weg\b|gasse|platz|allee|ring\b|damm|ufer|chaussee|rue\b|avenue|av\.|boulevard|bd\b|chemin|place\b|quai|calle|c\/|avda|paseo|plaza|via\b|viale|piazza|corso|largo|straat|laan\b|plein|gracht|kade|street|st\.|road|rd\.|lane|drive|way\b|square|postfach|p\.?o\.? box)/i;
const LEGAL_FORM =
  /\b(gmbh|ag|ug|kg|ohg|gbr|e\.\s?k\.|e\.\s?v\.|mbh|se|kgaa|gesmbh|ltd|limited|llc|llp|inc|corp|plc|sarl|sàrl|sas|sasu|eurl|sa|s\.a\.|s\.l\.|sl|s\.r\.l\.|srl|s\.p\.a\.|spa|snc|b\.v\.|bv|n\.v\.|nv|v\.o\.f\.|vof|sagl|oy|ab|as|aps)\b/i;
const HEADING =
  /^(impressum|imprint|legal notice|site notice|kontakt|contact|adresse|address|anschrift|angaben gem(ä|ae)ß|information according|anbieter|herausgeber|verantwortlich|mentions l[ée]gales|aviso legal|note legali|colofon|postanschrift|sitz|registered office|editeur|éditeur)/i;
const LABEL = /^(firma|company|unternehmen|anbieter|betreiber|operator|soci[ée]t[ée]|raison sociale|empresa|titular|societ[àa]|ragione sociale|bedrijf|bedrijfsnaam|name|inhaber|owner)\s*:\s*/i;
const NOT_ADDRESS =
  /\b(tel|telefon|telephone|t[ée]l[ée]phone|tel[ée]fono|fon|phone|fax|e-?mail|mail|ust|ust-?id|vat|iva|tva|btw|hrb|hra|kvk|siret|siren|rcs|cif|nif)\b|www\.|https?:|register|amtsgericht|p\.\s?iva|geschäftsführ|managing|directeur|direttore/i;

const clean = (s: string) => s.replace(LABEL, '').replace(/\s+/g, ' ').trim();

function segmentsOf(text: string): string[] {
  return text
    .slice(0, 20_000)
    .split(/\n|\r|\s[|·•]\s|,\s*(?=\S)/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '' && s.length <= 120);
}

function zipAndCity(segment: string, next: string | undefined): { zip: string; city: string } | undefined {
  for (const form of ZIP_CITY) {
    const m = form.re.exec(segment);
    if (m) return { zip: m[form.zip]!.trim(), city: m[form.city]!.trim() };
  }
  const us = next ? US_STATE_ZIP.exec(next) : null; // "Springfield" + "IL 62701"
  if (us && new RegExp(`^${CITY}$`, 'u').test(segment)) return { zip: us[1]!, city: segment };
  return undefined;
}

const looksLikeStreet = (s: string) =>
  s.length <= 80 && !NOT_ADDRESS.test(s) && (STREET_WORDS.test(s) || /\p{L}.*\s\d+\s?[a-z]?$|^\d+[a-z]?\s+\p{L}/iu.test(s));

export function detectAddress(text: string): Address {
  const segments = segmentsOf(text);
  let fallback: Address | undefined;
  for (let i = 0; i < segments.length; i++) {
    if (NOT_ADDRESS.test(segments[i]!)) continue;
    const found = zipAndCity(segments[i]!, segments[i + 1]);
    if (!found) continue;
    const streetAt = i - 1;
    const street = streetAt >= 0 && looksLikeStreet(segments[streetAt]!) ? clean(segments[streetAt]!) : null;
    let company: string | null = null;
    if (street !== null) {
      const above = segments.slice(Math.max(0, streetAt - 3), streetAt).reverse();
      const withForm = above.find((s) => LEGAL_FORM.test(s) && !NOT_ADDRESS.test(s) && !HEADING.test(s));
      const direct = above[0] !== undefined && !HEADING.test(above[0]) && !NOT_ADDRESS.test(above[0]) ? above[0] : undefined;
      company = withForm !== undefined ? clean(withForm) : direct !== undefined ? clean(direct) : null;
      return { company: company || null, street, zipCode: found.zip, city: found.city };
    }
    fallback ??= { company: null, street: null, zipCode: found.zip, city: found.city };
  }
  return fallback ?? { company: null, street: null, zipCode: null, city: null };
}

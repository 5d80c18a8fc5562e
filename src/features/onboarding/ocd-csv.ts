/**
 * Reads the Open Cookie Database CSV (https://github.com/jkwakman/Open-Cookie-Database, Apache-2.0):
 * RFC 4180 parsing, the columns we use, and the category spellings found in the data.
 */
import type { PurposeId } from '../locales/builtin-texts.js';

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const input = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (quoted) {
      if (ch === '"' && input[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && input[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += ch;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

export type OcdCategory = 'necessary' | 'security' | 'functional' | 'analytics' | 'marketing' | 'personalization';

/** Category spellings seen in the data, the off-spec ones included, → the six we map. */
const CATEGORY_ALIASES: Record<string, OcdCategory> = {
  functional: 'functional', functionality: 'functional', function: 'functional',
  necessary: 'necessary', 'strictly necessary': 'necessary', essential: 'necessary', technical: 'necessary',
  security: 'security',
  analytics: 'analytics', analytic: 'analytics', statistics: 'analytics', statistic: 'analytics', performance: 'analytics',
  marketing: 'marketing', advertising: 'marketing', advertisement: 'marketing', ads: 'marketing', targeting: 'marketing',
  personalization: 'personalization', personalisation: 'personalization', preferences: 'personalization', preference: 'personalization',
};

export function normaliseCategory(raw: string): OcdCategory | undefined {
  return CATEGORY_ALIASES[raw.trim().toLowerCase().replace(/\s+/g, ' ')];
}

/**
 * Category → purpose. Functional goes to "other", not "technically necessary": the database files
 * convenience cookies (language, video player settings) under Functional too, and classing one of those
 * as necessary would set it without consent. Necessary and Security are technically necessary.
 */
export const CATEGORY_PURPOSE: Record<OcdCategory, PurposeId> = {
  necessary: '41ba25c', security: '41ba25c', functional: '15c61c3', analytics: 'a717ff5', marketing: 'cdcbd7c',
  personalization: '7c19e32',
};

export interface OcdRow {
  platform: string;
  category: OcdCategory;
  name: string;
  description: string;
  retention: string;
  controller: string;
  privacyUrl: string;
  wildcard: boolean;
}

export interface ImportNote {
  /** CSV record number, the header being record 1 (a quoted line break does not start a record). */
  row?: number;
  name?: string;
  reason: string;
}

const COLUMNS = {
  platform: 'Platform', category: 'Category', name: 'Cookie / Data Key name', description: 'Description',
  retention: 'Retention period', controller: 'Data Controller', privacyUrl: 'User Privacy & GDPR Rights Portals',
  wildcard: 'Wildcard match',
} as const;

export function readOcdRows(text: string): { rows: OcdRow[]; skipped: ImportNote[] } {
  const [header, ...records] = parseCsv(text);
  if (!header) return { rows: [], skipped: [{ reason: 'empty file' }] };
  const index = Object.fromEntries(
    Object.entries(COLUMNS).map(([key, title]) => [key, header.findIndex((h) => h.trim() === title)]),
  ) as Record<keyof typeof COLUMNS, number>;
  const missing = Object.entries(index).filter(([, i]) => i === -1).map(([key]) => COLUMNS[key as keyof typeof COLUMNS]);
  if (missing.length > 0) throw new Error(`not an Open Cookie Database CSV: missing column(s) ${missing.join(', ')}`);
  const rows: OcdRow[] = [];
  const skipped: ImportNote[] = [];
  records.forEach((record, i) => {
    const cell = (key: keyof typeof COLUMNS) => (record[index[key]] ?? '').replace(/\s+/g, ' ').trim();
    const line = i + 2;
    const category = normaliseCategory(cell('category'));
    if (!category) return skipped.push({ row: line, name: cell('name'), reason: `unknown category "${cell('category')}"` });
    if (cell('platform') === '') return skipped.push({ row: line, name: cell('name'), reason: 'no platform' });
    if (cell('name') === '') return skipped.push({ row: line, reason: 'no cookie name' });
    rows.push({
      platform: cell('platform'),
      category,
      name: cell('name'),
      description: cell('description'),
      retention: cell('retention'),
      controller: cell('controller'),
      privacyUrl: cell('privacyUrl'),
      wildcard: cell('wildcard') === '1',
    });
  });
  return { rows, skipped };
}

import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import { AppError } from '../../errors.js';
import { mutateDomain, requireDomain } from '../domains/domain-scope.js';
import { LOCALES_WITHOUT_MORE_THAN_2_LANG, requireFeature } from '../clients/feature-gates.js';
import { HTML_TEXT_FIELDS, LOCALE_TEXT_FIELDS, type LocaleTextField } from './builtin-texts.js';
import { sanitizeLegalHtml } from './locale-html.js';
import { effectiveTexts, type StandardTexts, type StoredTexts } from './locale-texts.js';
import { standardTexts } from '../account/account.service.js';
import {
  deleteLocaleRow,
  findScopedLocaleRow,
  insertLocaleRow,
  listLocaleRows,
  listScopedLocaleRows,
  updateLocaleRow,
} from './locales.repository.js';
import { MAX_LOCALES_PER_DOMAIN, type CreateLocale, type Locale, type UpdateLocale } from './locales.schemas.js';
import type { LocaleRow } from './locales.table.js';

export function parseStoredTexts(json: string): StoredTexts {
  const parsed = JSON.parse(json) as Partial<StoredTexts>;
  return { texts: parsed.texts ?? {}, purposeNames: parsed.purposeNames ?? {}, purposeDescriptions: parsed.purposeDescriptions ?? {} };
}

/** The stored fields; a field never set reads as "" (it falls back to the built-in text in the widget). */
export function localeRowToLocale(row: LocaleRow, effective = false, standard?: StandardTexts): Locale {
  const stored = parseStoredTexts(row.texts);
  if (effective) return { name: row.name, active: row.active === 1, ...effectiveTexts(row.name, stored, standard) };
  const texts = Object.fromEntries(LOCALE_TEXT_FIELDS.map((f) => [f, stored.texts[f] ?? ''])) as Record<LocaleTextField, string>;
  return {
    name: row.name,
    active: row.active === 1,
    ...texts,
    purposeNames: { ...stored.purposeNames },
    purposeDescriptions: { ...stored.purposeDescriptions },
  };
}

/** HTML fields are stored sanitised (the value a later GET shows is the one visitors' pages render). */
export function mergeTexts(current: StoredTexts, input: Omit<UpdateLocale, 'name' | 'active'>): StoredTexts {
  const texts = { ...current.texts };
  for (const f of LOCALE_TEXT_FIELDS) {
    const given = input[f];
    if (given === undefined) continue;
    const value = HTML_TEXT_FIELDS.includes(f) ? sanitizeLegalHtml(given) : given;
    if (value === '') delete texts[f];
    else texts[f] = value;
  }
  const purposes = (base: StoredTexts['purposeNames'], patch: StoredTexts['purposeNames'] | undefined) => {
    const next = { ...base };
    for (const [id, value] of Object.entries(patch ?? {}) as [keyof typeof next, string][]) {
      if (value === '') delete next[id];
      else next[id] = value;
    }
    return next;
  };
  return {
    texts,
    purposeNames: purposes(current.purposeNames, input.purposeNames),
    purposeDescriptions: purposes(current.purposeDescriptions, input.purposeDescriptions),
  };
}

const EMPTY: StoredTexts = { texts: {}, purposeNames: {}, purposeDescriptions: {} };

export async function listLocales(deps: Deps, c: string, d: string): Promise<Locale[]> {
  const rows = await listScopedLocaleRows(deps.db, c, d);
  if (rows.length === 0) await requireDomain(deps.db, deps.engine, c, d);
  return rows.map((r) => localeRowToLocale(r));
}

export async function getLocale(deps: Deps, c: string, d: string, name: string, effective = false): Promise<Locale> {
  const row = await findScopedLocaleRow(deps.db, c, d, name);
  if (!row) throw new AppError('LOCALE_NOT_FOUND');
  // What the widget shows includes the agency's standard texts (docs/account.md).
  return localeRowToLocale(row, effective, effective ? await standardTexts(deps.db) : undefined);
}

export async function createLocale(deps: Deps, c: string, d: string, input: CreateLocale): Promise<Locale> {
  return mutateDomain(deps, c, d, async ({ trx, changed, features }) => {
    const existing = await listLocaleRows(trx, d);
    if (existing.some((l) => l.name === input.name)) {
      throw new AppError('LOCALE_NAME_TAKEN', [{ field: 'body.name', message: `${input.name} already exists` }]);
    }
    if (existing.length >= MAX_LOCALES_PER_DOMAIN) {
      throw new AppError('RESOURCE_LIMIT_REACHED', [
        { field: 'locales', message: `a domain has at most ${MAX_LOCALES_PER_DOMAIN} locales` },
      ]);
    }
    if ((input.active ?? true) && existing.filter((l) => l.active === 1).length >= LOCALES_WITHOUT_MORE_THAN_2_LANG) {
      requireFeature(await features(), 'moreThan2Lang', 'body.active');
    }
    const now = isoNow(deps.clock);
    const row: LocaleRow = {
      domain_id: d,
      name: input.name,
      active: Number(input.active ?? true),
      texts: JSON.stringify(mergeTexts(EMPTY, input)),
      created_at: now,
      updated_at: now,
    };
    await insertLocaleRow(trx, row);
    changed('config');
    return localeRowToLocale(row);
  });
}

export async function updateLocale(deps: Deps, c: string, d: string, name: string, input: UpdateLocale): Promise<Locale> {
  if (input.name !== undefined && input.name !== name) {
    throw new AppError('IMMUTABLE_FIELD', [{ field: 'body.name', message: 'a locale cannot be renamed; create a new one' }]);
  }
  return mutateDomain(deps, c, d, async ({ trx, changed, features }) => {
    const row = await findScopedLocaleRow(trx, c, d, name);
    if (!row) throw new AppError('LOCALE_NOT_FOUND');
    const current = parseStoredTexts(row.texts);
    const merged = mergeTexts(current, input);
    const active = input.active === undefined ? row.active : Number(input.active);
    if (active === 1 && row.active === 0) {
      const others = (await listLocaleRows(trx, d)).filter((l) => l.active === 1 && l.name !== name).length;
      if (others >= LOCALES_WITHOUT_MORE_THAN_2_LANG) requireFeature(await features(), 'moreThan2Lang', 'body.active');
    }
    if (active === row.active && isDeepStrictEqual(merged, current)) return localeRowToLocale(row);
    const next = { ...row, active, texts: JSON.stringify(merged), updated_at: isoNow(deps.clock) };
    await updateLocaleRow(trx, d, name, { active: next.active, texts: next.texts, updated_at: next.updated_at });
    changed('config');
    return localeRowToLocale(next);
  });
}

export async function deleteLocale(deps: Deps, c: string, d: string, name: string): Promise<void> {
  await mutateDomain(deps, c, d, async ({ trx, changed }) => {
    if (!(await deleteLocaleRow(trx, d, name))) throw new AppError('LOCALE_NOT_FOUND');
    changed('config');
  });
}

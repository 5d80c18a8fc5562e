/**
 * Account-wide themes and standard texts (issue #19 point 5; docs/account.md): the agency defines them once.
 * A theme is used on the domains its distribution names (or all), in place of the domain's default theme
 * unless the domain keeps its own (`useAccountTheme: false`) or the snippet pins a theme; standard texts fill
 * every field a domain's locale leaves empty. Changes go live at once: each raises the configuration revision
 * of every domain it reaches, which is what every process's widget cache is keyed by.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import type { Executor } from '../../db/database.js';
import { newShortId } from '../../db/ids.js';
import { AppError } from '../../errors.js';
import { bumpConfigRevisions, existingDomainIds } from '../domains/domains.service.js';
import type { StandardTexts, StoredTexts } from '../locales/locale-texts.js';
import { mergeTexts, parseStoredTexts } from '../locales/locales.service.js';
import type { LocaleTextsInput } from '../locales/locales.schemas.js';
import { LOCALE_TEXT_FIELDS } from '../locales/builtin-texts.js';
import { THEME_DEFAULTS, type Theme, type ThemeSettings } from '../themes/themes.schemas.js';
import { normalise } from '../themes/themes.service.js';
import {
  deleteAccountTextRow,
  deleteAccountThemeRow,
  findAccountTextRow,
  findAccountThemeRow,
  insertAccountThemeRow,
  listAccountTextRows,
  listAccountThemeRows,
  updateAccountThemeRow,
  upsertAccountTextRow,
} from './account.repository.js';
import { MAX_ACCOUNT_THEMES, type AccountTheme, type CreateAccountTheme, type UpdateAccountTheme } from './account.schemas.js';
import type { AccountThemeRow } from './account.table.js';

function rowToAccountTheme(row: AccountThemeRow): AccountTheme {
  return {
    id: row.id,
    name: row.name,
    allDomains: row.all_domains === 1,
    domainIds: JSON.parse(row.domain_ids) as string[],
    ...THEME_DEFAULTS,
    ...(JSON.parse(row.data) as Partial<ThemeSettings>),
  };
}

/** The domains a theme reaches: 'all', or its list. */
const reach = (t: Pick<AccountTheme, 'allDomains' | 'domainIds'>): string[] | 'all' => (t.allDomains ? 'all' : t.domainIds);

async function assertDomainsExist(db: Executor, ids: readonly string[] | undefined): Promise<void> {
  if (!ids || ids.length === 0) return;
  const found = await existingDomainIds(db, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError('VALIDATION_FAILED', missing.slice(0, 20).map((id) => ({ field: 'body.domainIds', message: `no domain ${id}` })));
  }
}

/** Bumps the revisions of the domains either version of a theme reaches (moving a theme off a domain changes it too). */
async function bumpReach(db: Executor, deps: Deps, ...versions: (AccountTheme | undefined)[]): Promise<void> {
  const reaches = versions.filter((v): v is AccountTheme => v !== undefined).map(reach);
  const now = isoNow(deps.clock);
  if (reaches.includes('all')) return bumpConfigRevisions(db, 'all', now);
  const ids = [...new Set(reaches.flat() as string[])];
  if (ids.length > 0) await bumpConfigRevisions(db, ids, now);
}

export async function listAccountThemes(deps: Deps): Promise<AccountTheme[]> {
  return (await listAccountThemeRows(deps.db)).map(rowToAccountTheme);
}

export async function getAccountTheme(deps: Deps, id: string): Promise<AccountTheme> {
  const row = await findAccountThemeRow(deps.db, id);
  if (!row) throw new AppError('THEME_NOT_FOUND');
  return rowToAccountTheme(row);
}

export async function createAccountTheme(deps: Deps, input: CreateAccountTheme): Promise<AccountTheme> {
  const { name, allDomains = false, domainIds = [], ...settings } = input;
  const data = normalise(settings);
  return deps.db.transaction().execute(async (trx) => {
    if ((await listAccountThemeRows(trx)).length >= MAX_ACCOUNT_THEMES) {
      throw new AppError('RESOURCE_LIMIT_REACHED', [{ field: 'accountThemes', message: `at most ${MAX_ACCOUNT_THEMES} account themes` }]);
    }
    await assertDomainsExist(trx, domainIds);
    const now = isoNow(deps.clock);
    const row: AccountThemeRow = {
      id: await newShortId(trx, 'account_themes', deps.ids),
      name,
      data: JSON.stringify({ ...THEME_DEFAULTS, ...data }),
      all_domains: Number(allDomains),
      domain_ids: JSON.stringify(domainIds),
      created_at: now,
      updated_at: now,
    };
    await insertAccountThemeRow(trx, row);
    const theme = rowToAccountTheme(row);
    await bumpReach(trx, deps, theme);
    return theme;
  });
}

export async function updateAccountTheme(deps: Deps, id: string, input: UpdateAccountTheme): Promise<AccountTheme> {
  const { name, allDomains, domainIds, ...settings } = input;
  const data = normalise(settings);
  return deps.db.transaction().execute(async (trx) => {
    const row = await findAccountThemeRow(trx, id);
    if (!row) throw new AppError('THEME_NOT_FOUND');
    await assertDomainsExist(trx, domainIds);
    const before = rowToAccountTheme(row);
    const after: AccountTheme = {
      ...before,
      ...data,
      name: name ?? before.name,
      allDomains: allDomains ?? before.allDomains,
      domainIds: domainIds ?? before.domainIds,
    };
    if (isDeepStrictEqual(before, after)) return before;
    const { id: _id, name: nextName, allDomains: nextAll, domainIds: nextIds, ...nextSettings } = after;
    await updateAccountThemeRow(trx, id, {
      name: nextName,
      data: JSON.stringify(nextSettings),
      all_domains: Number(nextAll),
      domain_ids: JSON.stringify(nextIds),
      updated_at: isoNow(deps.clock),
    });
    await bumpReach(trx, deps, before, after);
    return after;
  });
}

export async function deleteAccountTheme(deps: Deps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await findAccountThemeRow(trx, id);
    if (!row) throw new AppError('THEME_NOT_FOUND');
    await deleteAccountThemeRow(trx, id);
    await bumpReach(trx, deps, rowToAccountTheme(row));
  });
}

/**
 * The account themes used on a domain, in the order they apply: those that name the domain before those for
 * all domains, each group oldest first. The first one replaces the domain's default theme (docs/account.md).
 */
export async function accountThemesFor(db: Executor, domainId: string): Promise<Theme[]> {
  const themes = (await listAccountThemeRows(db)).map(rowToAccountTheme);
  const named = themes.filter((t) => t.domainIds.includes(domainId));
  const all = themes.filter((t) => t.allDomains && !t.domainIds.includes(domainId));
  return [...named, ...all].map(({ allDomains: _a, domainIds: _d, ...t }) => ({ ...t, default: false }));
}

// Standard texts.

export interface AccountTexts {
  language: string;
  texts: StoredTexts;
}

/** Stored fields as read back ("" where unset), as a locale reads. */
export function textsView(stored: StoredTexts) {
  return {
    ...(Object.fromEntries(LOCALE_TEXT_FIELDS.map((f) => [f, stored.texts[f] ?? ''])) as Record<(typeof LOCALE_TEXT_FIELDS)[number], string>),
    purposeNames: { ...stored.purposeNames },
    purposeDescriptions: { ...stored.purposeDescriptions },
  };
}

export async function listStandardTexts(deps: Deps): Promise<AccountTexts[]> {
  return (await listAccountTextRows(deps.db)).map((r) => ({ language: r.language, texts: parseStoredTexts(r.texts) }));
}

export async function getStandardTexts(deps: Deps, language: string): Promise<StoredTexts> {
  const row = await findAccountTextRow(deps.db, language);
  if (!row) throw new AppError('LOCALE_NOT_FOUND', undefined, `The agency has no standard texts for ${language}.`);
  return parseStoredTexts(row.texts);
}

/** PUT merges like a locale's PUT ("" clears a field); every domain's widget is rebuilt. */
export async function putStandardTexts(deps: Deps, language: string, input: LocaleTextsInput): Promise<StoredTexts> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findAccountTextRow(trx, language);
    const current = row ? parseStoredTexts(row.texts) : { texts: {}, purposeNames: {}, purposeDescriptions: {} };
    const merged = mergeTexts(current, input);
    if (row && isDeepStrictEqual(merged, current)) return current;
    const now = isoNow(deps.clock);
    await upsertAccountTextRow(trx, { language, texts: JSON.stringify(merged), updated_at: now });
    await bumpConfigRevisions(trx, 'all', now);
    return merged;
  });
}

export async function deleteStandardTexts(deps: Deps, language: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteAccountTextRow(trx, language))) {
      throw new AppError('LOCALE_NOT_FOUND', undefined, `The agency has no standard texts for ${language}.`);
    }
    await bumpConfigRevisions(trx, 'all', isoNow(deps.clock));
  });
}

/** Every language's standard texts, for building a widget or a consent snapshot. */
export async function standardTexts(db: Executor): Promise<StandardTexts> {
  return new Map((await listAccountTextRows(db)).map((r) => [r.language, parseStoredTexts(r.texts)]));
}

import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import type { Executor } from '../../db/database.js';
import { newShortId } from '../../db/ids.js';
import { AppError, type ErrorDetail } from '../../errors.js';
import { mutateDomain, requireDomain } from '../domains/domain-scope.js';
import { THEME_GATES, assertFeatureUse } from '../clients/feature-gates.js';
import { checkImage } from './theme-image.js';
import {
  clearDefaultTheme,
  deleteThemeRow,
  findScopedThemeRow,
  insertThemeRow,
  listScopedThemeRows,
  listThemeRows,
  updateThemeRow,
} from './themes.repository.js';
import {
  COLOR_FIELDS,
  LOGO_MAX_BYTES,
  MAX_THEMES_PER_DOMAIN,
  SETTINGS_ICON_MAX_BYTES,
  THEME_DEFAULTS,
  type CreateTheme,
  type Theme,
  type ThemeSettings,
  type UpdateTheme,
} from './themes.schemas.js';
import type { ThemeRow } from './themes.table.js';

export const DEFAULT_THEME_NAME = 'Standard';

export function themeRowToTheme(row: ThemeRow): Theme {
  return {
    id: row.id,
    name: row.name,
    default: row.is_default === 1,
    ...THEME_DEFAULTS,
    ...(JSON.parse(row.data) as Partial<ThemeSettings>),
  };
}

/** Validates images and normalises colours to lower case; every problem is reported at once. */
export function normalise(settings: Partial<ThemeSettings>): Partial<ThemeSettings> {
  const out: Partial<ThemeSettings> = { ...settings };
  const details: ErrorDetail[] = [];
  for (const [field, max] of [['logoImage', LOGO_MAX_BYTES], ['settingsIconImage', SETTINGS_ICON_MAX_BYTES]] as const) {
    const value = settings[field];
    if (value === undefined || value === null) continue;
    const check = checkImage(value, max);
    if (check.ok) out[field] = check.base64;
    else details.push({ field: `body.${field}`, message: check.reason });
  }
  if (details.length > 0) throw new AppError('INVALID_IMAGE', details);
  for (const f of COLOR_FIELDS) {
    const value = settings[f];
    if (value !== undefined) out[f] = value.toLowerCase();
  }
  return out;
}

/** A new domain's theme, created in the domain's own transaction. */
export async function insertDefaultTheme(db: Executor, deps: Deps, domainId: string): Promise<void> {
  const now = isoNow(deps.clock);
  await insertThemeRow(db, {
    id: await newShortId(db, 'themes', deps.ids),
    domain_id: domainId,
    name: DEFAULT_THEME_NAME,
    is_default: 1,
    data: '{}',
    created_at: now,
    updated_at: now,
  });
}

export async function listThemes(deps: Deps, c: string, d: string): Promise<Theme[]> {
  const rows = await listScopedThemeRows(deps.db, c, d);
  if (rows.length === 0) await requireDomain(deps.db, deps.engine, c, d);
  return rows.map(themeRowToTheme);
}

export async function getTheme(deps: Deps, c: string, d: string, themeId: string): Promise<Theme> {
  const row = await findScopedThemeRow(deps.db, c, d, themeId);
  if (!row) throw new AppError('THEME_NOT_FOUND');
  return themeRowToTheme(row);
}

export async function createTheme(deps: Deps, c: string, d: string, input: CreateTheme): Promise<Theme> {
  const { name, default: isDefault = false, ...settings } = input;
  const data = normalise(settings);
  return mutateDomain(deps, c, d, async ({ trx, changed, features }) => {
    assertFeatureUse(await features(), THEME_GATES, THEME_DEFAULTS, { ...THEME_DEFAULTS, ...data });
    const existing = await listThemeRows(trx, d);
    if (existing.length >= MAX_THEMES_PER_DOMAIN) {
      throw new AppError('RESOURCE_LIMIT_REACHED', [
        { field: 'themes', message: `a domain has at most ${MAX_THEMES_PER_DOMAIN} themes` },
      ]);
    }
    const makeDefault = isDefault || existing.length === 0;
    if (makeDefault) await clearDefaultTheme(trx, d);
    const now = isoNow(deps.clock);
    const row: ThemeRow = {
      id: await newShortId(trx, 'themes', deps.ids),
      domain_id: d,
      name,
      is_default: Number(makeDefault),
      data: JSON.stringify({ ...THEME_DEFAULTS, ...data }),
      created_at: now,
      updated_at: now,
    };
    await insertThemeRow(trx, row);
    changed('config');
    return themeRowToTheme(row);
  });
}

/** PUT merges. `default: true` moves the default here; `default: false` on the default is refused. */
export async function updateTheme(deps: Deps, c: string, d: string, themeId: string, input: UpdateTheme): Promise<Theme> {
  const { name, default: isDefault, ...settings } = input;
  const data = normalise(settings);
  return mutateDomain(deps, c, d, async ({ trx, changed, features }) => {
    const row = await findScopedThemeRow(trx, c, d, themeId);
    if (!row) throw new AppError('THEME_NOT_FOUND');
    const before = themeRowToTheme(row);
    assertFeatureUse(await features(), THEME_GATES, before, { ...before, ...data });
    if (isDefault === false && before.default) {
      throw new AppError('DEFAULT_THEME_REQUIRED', [{ field: 'body.default', message: 'mark another theme as default instead' }]);
    }
    const after: Theme = { ...before, ...data, name: name ?? before.name, default: isDefault ?? before.default };
    if (isDeepStrictEqual(before, after)) return before;
    if (after.default && !before.default) await clearDefaultTheme(trx, d);
    const { id: _id, name: nextName, default: nextDefault, ...nextSettings } = after;
    await updateThemeRow(trx, d, themeId, {
      name: nextName,
      is_default: Number(nextDefault),
      data: JSON.stringify(nextSettings),
      updated_at: isoNow(deps.clock),
    });
    changed('config');
    return after;
  });
}

/** The last theme cannot go; deleting the default promotes the oldest remaining theme. */
export async function deleteTheme(deps: Deps, c: string, d: string, themeId: string): Promise<void> {
  await mutateDomain(deps, c, d, async ({ trx, changed }) => {
    const themes = await listThemeRows(trx, d);
    const target = themes.find((t) => t.id === themeId);
    if (!target) throw new AppError('THEME_NOT_FOUND');
    if (themes.length === 1) throw new AppError('LAST_THEME');
    await deleteThemeRow(trx, d, themeId);
    if (target.is_default === 1) {
      const successor = themes.find((t) => t.id !== themeId)!;
      await updateThemeRow(trx, d, successor.id, { is_default: 1, updated_at: isoNow(deps.clock) });
    }
    changed('config');
  });
}

import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { mutateDomain, requireDomain } from '../domains/domain-scope.js';
import {
  deletePlaceholderRows,
  findScopedPlaceholderRow,
  insertPlaceholderRows,
  listPlaceholderRows,
  listScopedPlaceholderRows,
  updatePlaceholderValue,
} from './placeholders.repository.js';
import {
  MAX_PLACEHOLDERS_PER_DOMAIN,
  stripBraces,
  type CreatePlaceholder,
  type Placeholder,
  type UpdatePlaceholder,
} from './placeholders.schemas.js';
import type { PlaceholderRow } from './placeholders.table.js';

const toPlaceholder = (row: PlaceholderRow): Placeholder => ({ name: row.name, value: row.value });

export async function listPlaceholders(deps: Deps, c: string, d: string): Promise<Placeholder[]> {
  const rows = await listScopedPlaceholderRows(deps.db, c, d);
  if (rows.length === 0) await requireDomain(deps.db, deps.engine, c, d);
  return rows.map(toPlaceholder);
}

export async function getPlaceholder(deps: Deps, c: string, d: string, name: string): Promise<Placeholder> {
  const row = await findScopedPlaceholderRow(deps.db, c, d, stripBraces(name));
  if (!row) throw new AppError('PLACEHOLDER_NOT_FOUND');
  return toPlaceholder(row);
}

export async function createPlaceholder(deps: Deps, c: string, d: string, input: CreatePlaceholder): Promise<Placeholder> {
  const name = stripBraces(input.name);
  return mutateDomain(deps, c, d, async ({ trx, changed }) => {
    const rows = await listPlaceholderRows(trx, d);
    if (rows.some((r) => r.name === name)) {
      throw new AppError('PLACEHOLDER_NAME_TAKEN', [{ field: 'body.name', message: `{${name}} already exists` }]);
    }
    if (rows.length >= MAX_PLACEHOLDERS_PER_DOMAIN) {
      throw new AppError('RESOURCE_LIMIT_REACHED', [
        { field: 'placeholders', message: `a domain has at most ${MAX_PLACEHOLDERS_PER_DOMAIN} placeholders` },
      ]);
    }
    const position = rows.reduce((max, r) => Math.max(max, r.position), -1) + 1;
    await insertPlaceholderRows(trx, [{ domain_id: d, name, value: input.value, position }]);
    changed('config');
    return { name, value: input.value };
  });
}

/** PUT on the collection: the domain's whole set is replaced atomically. */
export async function replacePlaceholders(
  deps: Deps,
  c: string,
  d: string,
  input: readonly CreatePlaceholder[],
): Promise<Placeholder[]> {
  const next = input.map((p) => ({ name: stripBraces(p.name), value: p.value }));
  const seen = new Map<string, number>();
  const details = next.flatMap((p, i) => {
    const first = seen.get(p.name);
    seen.set(p.name, first ?? i);
    return first === undefined ? [] : [{ field: `body.${i}.name`, message: `duplicates body.${first}.name ({${p.name}})` }];
  });
  if (details.length > 0) throw new AppError('VALIDATION_FAILED', details);
  return mutateDomain(deps, c, d, async ({ trx, changed }) => {
    const before = (await listPlaceholderRows(trx, d)).map(toPlaceholder);
    if (isDeepStrictEqual(before, next)) return before;
    await deletePlaceholderRows(trx, d);
    await insertPlaceholderRows(trx, next.map((p, position) => ({ domain_id: d, ...p, position })));
    changed('config');
    return next;
  });
}

export async function updatePlaceholder(
  deps: Deps,
  c: string,
  d: string,
  rawName: string,
  input: UpdatePlaceholder,
): Promise<Placeholder> {
  const name = stripBraces(rawName);
  if (input.name !== undefined && stripBraces(input.name) !== name) {
    throw new AppError('IMMUTABLE_FIELD', [{ field: 'body.name', message: 'a placeholder cannot be renamed; create a new one' }]);
  }
  return mutateDomain(deps, c, d, async ({ trx, changed }) => {
    const row = await findScopedPlaceholderRow(trx, c, d, name);
    if (!row) throw new AppError('PLACEHOLDER_NOT_FOUND');
    if (input.value === undefined || input.value === row.value) return toPlaceholder(row);
    await updatePlaceholderValue(trx, d, name, input.value);
    changed('config');
    return { name, value: input.value };
  });
}

export async function deletePlaceholder(deps: Deps, c: string, d: string, rawName: string): Promise<void> {
  await mutateDomain(deps, c, d, async ({ trx, changed }) => {
    if ((await deletePlaceholderRows(trx, d, stripBraces(rawName))) === 0) throw new AppError('PLACEHOLDER_NOT_FOUND');
    changed('config');
  });
}

/**
 * Constraint violations are recognised by the driver's error code, never by message text
 * (SQLite: better-sqlite3's `code`; PostgreSQL: SQLSTATE 23505).
 */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false;
  const code = (err as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** pg returns int8 and count(*) as strings, SQLite as numbers. */
export function toInt(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value !== '') return Number.parseInt(value, 10);
  return 0;
}

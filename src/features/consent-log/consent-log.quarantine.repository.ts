import type { Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';

export interface QuarantineRange {
  id: string;
  fromSeq: number;
  toSeq: number;
  reason: string;
  createdAt: string;
}

const toRange = (r: { id: string; from_seq: number | string; to_seq: number | string; reason: string; created_at: string }): QuarantineRange => ({
  id: r.id,
  fromSeq: toInt(r.from_seq),
  toSeq: toInt(r.to_seq),
  reason: r.reason,
  createdAt: r.created_at,
});

/** A domain's quarantined ranges in chain order. Callers have checked the domain's owner. */
export async function listRanges(db: Executor, domainId: string): Promise<QuarantineRange[]> {
  const rows = await db.selectFrom('consent_quarantine').selectAll().where('domain_id', '=', domainId).orderBy('from_seq').orderBy('id').execute();
  return rows.map(toRange);
}

export async function insertRange(db: Executor, domainId: string, range: QuarantineRange): Promise<void> {
  await db
    .insertInto('consent_quarantine')
    .values({ id: range.id, domain_id: domainId, from_seq: range.fromSeq, to_seq: range.toSeq, reason: range.reason, created_at: range.createdAt })
    .execute();
}

export async function deleteRange(db: Executor, domainId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('consent_quarantine').where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The domain's last chain position (0 before its first record). */
export async function lastSeqOf(db: Executor, domainId: string): Promise<number> {
  const row = await db.selectFrom('consent_log_heads').select('last_seq').where('domain_id', '=', domainId).executeTakeFirst();
  return row ? toInt(row.last_seq) : 0;
}

/** First and last chain position of the domain's records with `fromTs <= ts <= toTs` (Unix seconds). */
export async function seqRangeOfTimes(db: Executor, domainId: string, fromTs: number, toTs: number): Promise<{ from: number; to: number } | undefined> {
  const row = await db
    .selectFrom('consent_records')
    .select((eb) => [eb.fn.min('seq').as('from'), eb.fn.max('seq').as('to')])
    .where('domain_id', '=', domainId)
    .where('ts', '>=', fromTs)
    .where('ts', '<=', toTs)
    .executeTakeFirst();
  if (!row || row.from === null || row.to === null) return undefined;
  return { from: toInt(row.from), to: toInt(row.to) };
}

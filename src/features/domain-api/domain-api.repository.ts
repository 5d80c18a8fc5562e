import type { Executor } from '../../db/database.js';
import { toInt } from '../../db/errors.js';

export interface DomainListRow {
  id: string;
  name: string;
  whitelabel: boolean;
  views: number;
}

/** The client's domains with their widget calls summed over all months, in one query. */
export async function listDomainsWithViews(db: Executor, clientId: string): Promise<DomainListRow[]> {
  const rows = await db
    .selectFrom('domains as d')
    .select((eb) => [
      'd.id',
      'd.name',
      'd.whitelabel',
      eb
        .selectFrom('call_counts as cc')
        .select((sub) => sub.fn.coalesce(sub.fn.sum<number | string>('cc.count'), sub.lit(0)).as('n'))
        .whereRef('cc.domain_id', '=', 'd.id')
        .as('views'),
    ])
    .where('d.client_id', '=', clientId)
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, whitelabel: r.whitelabel === 1, views: toInt(r.views) }));
}

/**
 * The client's domain with the position of its current block, in one query: undefined when the domain is
 * not the client's; `block` null while the domain has logged nothing.
 */
export async function findOwnDomainBlock(
  db: Executor,
  clientId: string,
  domainId: string,
): Promise<{ block: { blockNo: number; firstSeq: number; lastSeq: number } | null } | undefined> {
  const row = await db
    .selectFrom('domains as d')
    .leftJoin('consent_log_heads as h', 'h.domain_id', 'd.id')
    .select(['h.block_no', 'h.block_first_seq', 'h.last_seq'])
    .where('d.client_id', '=', clientId)
    .where('d.id', '=', domainId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.block_no === null) return { block: null };
  return { block: { blockNo: row.block_no, firstSeq: toInt(row.block_first_seq), lastSeq: toInt(row.last_seq) } };
}

import type pg from 'pg';
import { pgPoolOf } from '../../db/connect.js';
import type { Deps } from '../../deps.js';
import { readHeads, type Head } from '../consent-log/consent-log.blocks.repository.js';
import type { AppendedRecords } from '../consent-log/consent-log.appended.js';
import { appendIfHeadsUnchanged, supportsSingleStatementAppend, type NewRecordRow } from './consent-ingest.repository.js';
import { appendRecords, blockRuleOf, planAppend, type PreparedRecord } from './consent-ingest.service.js';

/** Writes a batch of prepared records onto their domains' chains; resolves once it is committed. */
export interface LogWriter {
  write(records: readonly PreparedRecord[]): Promise<unknown>;
}

const TRANSIENT = new Set(['40001', '40P01', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']);
const unixNow = (deps: Deps) => Math.floor(deps.clock.now().getTime() / 1000);

/**
 * `appended`, when given, hears of every committed row (consent-log.appended.ts): this process's webhook feed
 * then sends them without reading them back from the log.
 */
export function createLogWriter(deps: Deps, appended?: AppendedRecords): LogWriter {
  const publish = appended ? (rows: readonly NewRecordRow[]) => appended.publish(rows) : undefined;
  const locking = new LockingWriter(deps, publish);
  const pool = supportsSingleStatementAppend(deps.engine) ? pgPoolOf(deps.db) : undefined;
  return pool ? new OptimisticWriter(deps, pool, locking, publish) : locking;
}

type Publish = (rows: readonly NewRecordRow[]) => void;

/**
 * One transaction per batch that locks the heads it appends to: correct with any number of writers.
 * SQLite uses it always (one connection, a transaction costs no round trip); PostgreSQL as the fallback.
 */
class LockingWriter implements LogWriter {
  constructor(
    private readonly deps: Deps,
    private readonly publish?: Publish,
  ) {}

  async write(records: readonly PreparedRecord[]): Promise<Map<string, Head>> {
    const { db, engine, config } = this.deps;
    for (let attempt = 1; ; attempt++) {
      try {
        return await appendRecords(db, engine, blockRuleOf(config), records, unixNow(this.deps), this.publish);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (attempt >= 4 || typeof code !== 'string' || !TRANSIENT.has(code)) throw err;
        await new Promise((r) => setTimeout(r, 5 * attempt));
      }
    }
  }
}

/**
 * PostgreSQL: a batch is chained onto the heads this process wrote last (or read, the first time) and
 * written in one statement, one round trip, that applies only where the head is still exactly that one
 * (repository: appendIfHeadsUnchanged). A domain whose head moved meanwhile (another process, an archive
 * call) is rewritten under the head lock, so every record ends up on one unbroken chain. Batches are
 * written one after the other (the queue never overlaps two writes).
 */
class OptimisticWriter implements LogWriter {
  private readonly heads = new Map<string, Head>();

  constructor(
    private readonly deps: Deps,
    private readonly pool: pg.Pool,
    private readonly locking: LockingWriter,
    private readonly publish?: Publish,
  ) {}

  async write(records: readonly PreparedRecord[]): Promise<void> {
    const now = unixNow(this.deps);
    const ids = [...new Set(records.map((r) => r.domainId))];
    const missing = ids.filter((id) => !this.heads.has(id));
    if (missing.length > 0) {
      if (this.heads.size > 10_000) this.heads.clear();
      for (const [id, head] of await readHeads(this.deps.db, missing, now)) this.heads.set(id, head);
    }
    const expected = new Map(ids.map((id) => [id, this.heads.get(id)!]));
    const plan = planAppend(expected, records, blockRuleOf(this.deps.config), now);
    let written: Set<string>;
    try {
      written = await appendIfHeadsUnchanged(this.pool, expected, plan.heads, plan.rows, plan.closedBlocks, plan.snapshotRefs);
    } catch (err) {
      for (const id of ids) this.heads.delete(id);
      throw err;
    }
    for (const id of ids) {
      if (written.has(id)) this.heads.set(id, plan.heads.get(id)!);
      else this.heads.delete(id);
    }
    this.publish?.(written.size === ids.length ? plan.rows : plan.rows.filter((r) => written.has(r.domain_id)));
    if (written.size === ids.length) return;
    const heads = await this.locking.write(records.filter((r) => !written.has(r.domainId)));
    for (const [id, head] of heads) this.heads.set(id, head);
  }
}

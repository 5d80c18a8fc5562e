import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import type { Deps } from '../../deps.js';
import { BACKSTOP_PAGES } from '../../db/checkpointer.js';
import { readHeads, type Head } from '../consent-log/consent-log.blocks.repository.js';
import { INSERT_BLOCK, INSERT_RECORD, INSERT_SNAPSHOT_REF, UPDATE_HEAD } from './consent-ingest.repository.js';
import { blockRuleOf, planAppend, type PreparedRecord } from './consent-ingest.service.js';
import type { LockingWriter, LogWriter } from './consent-ingest.writer.js';

/**
 * The worker's whole program: a second SQLite connection that runs one statement list per batch, as one
 * BEGIN IMMEDIATE transaction, and only when every head it builds on is still exactly the one the main
 * thread planned against (else it writes nothing and says so). The statements are the repository's own,
 * passed in `workerData`, so the SQL exists once. Plain CommonJS evaluated as a string, like the
 * checkpointer (src/db/checkpointer.ts): a worker cannot load the TypeScript sources under the test runner.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = ' + workerData.backstopPages);
const sql = workerData.sql;
const selectHead = db.prepare('select last_seq, block_no, head_hash from consent_log_heads where domain_id = ?');
const insertRecord = db.prepare(sql.insertRecord);
const insertRef = db.prepare(sql.insertRef);
const insertBlock = db.prepare(sql.insertBlock);
const updateHead = db.prepare(sql.updateHead);
const append = db.transaction((m) => {
  for (const e of m.expected) {
    const row = selectHead.get(e.domainId);
    if (!row || Number(row.last_seq) !== e.lastSeq || row.block_no !== e.blockNo || row.head_hash !== e.headHash) return false;
  }
  for (const r of m.rows) insertRecord.run(r);
  for (const r of m.refs) insertRef.run(r);
  for (const b of m.blocks) insertBlock.run(b);
  for (const h of m.heads) updateHead.run(h);
  return true;
});
let synchronous = 1;
parentPort.on('message', (m) => {
  if (m === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    if (m.synchronous !== synchronous) db.pragma('synchronous = ' + (synchronous = m.synchronous));
    parentPort.postMessage({ id: m.id, written: append.immediate(m) });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
`;

interface Reply {
  id: number;
  written?: boolean;
  error?: { message: string; code?: string };
}

/**
 * SQLite (a file, not `:memory:`): consent batches are written by a connection on a worker thread
 * (docs/consent-log.md, "The SQLite writer thread"). On the event loop the write was about a quarter of the
 * ingest path's CPU (the random ucid index makes each record dirty its own page); on its own thread it runs
 * while the event loop parses and answers the next requests, on the core the load's other work leaves free.
 *
 * Planning stays here, as PostgreSQL's optimistic writer does it: a batch is chained onto the heads this
 * process wrote last (or read, the first time), and the worker applies it only where every head is still that
 * one. Anything else (a head moved by an archive call, another process, a new domain, an error the worker
 * reports as busy) goes through the locking writer on the main connection, which reads the heads inside its
 * transaction. A record is acknowledged only after the worker's transaction committed, as before.
 */
export class ThreadLogWriter implements LogWriter {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void }>();
  private readonly heads = new Map<string, Head>();
  /** Batches the thread wrote, and batches that went to the locking writer (tests, and what the docs report). */
  readonly batches = { thread: 0, locking: 0 };

  constructor(
    private readonly deps: Deps,
    private readonly sqlite: SQLite.Database,
    private readonly locking: LockingWriter,
  ) {
    this.file = sqliteFileOf(sqlite)!;
  }

  private readonly file: string;

  async write(records: readonly PreparedRecord[]): Promise<void> {
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    const ids = [...new Set(records.map((r) => r.domainId))];
    const missing = ids.filter((id) => !this.heads.has(id));
    if (missing.length > 0) {
      if (this.heads.size > 10_000) this.heads.clear();
      for (const [id, head] of await readHeads(this.deps.db, missing, now)) this.heads.set(id, head);
    }
    const expected = new Map(ids.map((id) => [id, this.heads.get(id)!]));
    const plan = planAppend(expected, records, blockRuleOf(this.deps.config), now);
    const reply = await this.send({
      // The main connection's durability setting (NORMAL, or FULL where an operator or the bench set it) applies
      // to the connection that now does the writing.
      synchronous: this.sqlite.pragma('synchronous', { simple: true }) as number,
      expected: [...expected.values()].map((h) => ({ domainId: h.domainId, lastSeq: h.lastSeq, blockNo: h.blockNo, headHash: h.headHash })),
      rows: plan.rows.map((r) => [r.domain_id, r.seq, r.block_no, r.ucid, r.ts, r.record, r.hash]),
      refs: plan.snapshotRefs.map((s) => [s.domain_id, s.block_no, s.hash]),
      blocks: plan.closedBlocks.map((b) => ({ ...b, expired_at: b.expired_at ?? null })),
      heads: [...plan.heads.values()],
    });
    if (reply.written) {
      this.batches.thread++;
      for (const [id, head] of plan.heads) this.heads.set(id, head);
      return;
    }
    for (const id of ids) this.heads.delete(id);
    if (reply.error && !TRANSIENT.has(reply.error.code ?? '')) {
      throw Object.assign(new Error(`consent writer thread: ${reply.error.message}`), { code: reply.error.code });
    }
    // A head moved, or the database was busy: written under the head lock on the main connection instead.
    this.batches.locking++;
    for (const [id, head] of await this.locking.write(records)) this.heads.set(id, head);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }

  private send(message: object): Promise<Reply> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    // Referenced only while a batch is out, so an idle writer never keeps the process alive.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve) => {
      this.pending.set(id, { resolve });
      worker.postMessage({ id, ...message });
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file: this.file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        backstopPages: BACKSTOP_PAGES,
        sql: { insertRecord: INSERT_RECORD, insertRef: INSERT_SNAPSHOT_REF, insertBlock: INSERT_BLOCK, updateHead: UPDATE_HEAD },
      },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      waiting.resolve(reply);
    });
    // A worker that dies (out of memory, a driver crash) fails nothing: its batches go to the locking writer,
    // and the next batch starts a new worker.
    const lost = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiting] of this.pending) {
        this.pending.delete(id);
        waiting.resolve({ id, error: { message: why, code: 'SQLITE_BUSY' } });
      }
    };
    worker.on('error', (err) => {
      this.deps.log.warn({ err }, 'consent writer thread failed; restarting it');
      lost(err.message);
    });
    worker.on('exit', () => lost('the consent writer thread exited'));
    this.worker = worker;
    return worker;
  }
}

const TRANSIENT = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']);

/** The file a SQLite handle has open, or undefined for an in-memory database (no second connection can see it). */
export function sqliteFileOf(sqlite: SQLite.Database): string | undefined {
  return sqlite.memory || sqlite.name === '' ? undefined : sqlite.name;
}

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite WAL checkpoints on a worker thread. By default the connection that commits past
 * `wal_autocheckpoint` pages copies the WAL back into the database file and fsyncs it, inside that commit,
 * on the event loop. With the consent log's random ucid index that was about half of an append's cost
 * (bench/consent.ts). Here a second connection on its own thread runs PASSIVE checkpoints, which never
 * block the writer, and the writer's own auto-checkpoint stays on as a backstop for a WAL the worker
 * cannot keep short (it restarts only in a pause between writes). Durability is unchanged: WAL mode with
 * synchronous=NORMAL, as before, survives a killed process.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/** WAL pages after which the writing connection checkpoints itself (SQLite's default is 1000). */
export const BACKSTOP_PAGES = 10_000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, intervalMs: number, onError: (message: string) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, intervalMs, driver } });
  // The process may exit without closing the database (a CLI, a test); the worker must not keep it alive.
  worker.unref();
  worker.on('message', (m: { error?: string }) => {
    if (m.error) onError(m.error);
  });
  worker.on('error', (err) => onError(err.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Referenced again, or a process with nothing else left would exit while waiting for the worker.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}

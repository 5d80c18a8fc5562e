import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, sqliteHandleOf } from './connect.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-checkpoint-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('sqlite: WAL checkpoints on a worker thread', () => {
  it('copies committed pages into the database file without the writer, also with two processes on one file', async () => {
    const file = path.join(dir, 'placet.sqlite');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    // Two handles stand for two Placet processes: each has its own checkpoint worker.
    const first = connect({ kind: 'sqlite', file });
    const second = connect({ kind: 'sqlite', file });
    try {
      const writer = sqliteHandleOf(first.db)!;
      writer.exec('create table payload (x blob)');
      const insert = writer.prepare('insert into payload values (randomblob(4000))');
      // About 2 MB: far below the writer's own auto-checkpoint (10000 pages), so only the workers copy it.
      for (let i = 0; i < 500; i++) insert.run();
      expect(fs.statSync(file).size).toBeLessThan(1_000_000);
      const deadline = Date.now() + 5000;
      while (fs.statSync(file).size < 2_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(fs.statSync(file).size).toBeGreaterThanOrEqual(2_000_000);
      const reader = sqliteHandleOf(second.db)!;
      expect(reader.prepare('select count(*) as n from payload').get()).toEqual({ n: 500 });
    } finally {
      await first.close();
      await second.close();
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('checkpoint'))).toEqual([]);
  });
});

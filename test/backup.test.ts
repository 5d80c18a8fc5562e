import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { connect, type DatabaseHandle } from '../src/db/connect.js';
import { randomIds, systemClock } from '../src/deps.js';
import { verifyLog } from '../src/features/consent-log/consent-log.service.js';
import { HOSTING_KEY, TEST_DATABASE_URL, createClient, createDomain, freshDatabase, sendConsent, type TestContext } from './helper.js';

/**
 * Backup and restore as README "Backup and restore" tells it, on both engines: the copy is taken while the
 * app is serving, restored into a new place, and the consent log's chain verifies there.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-backup-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function contextOn(database: DatabaseHandle): Promise<TestContext> {
  const config = testConfig({ hostingApiKey: HOSTING_KEY });
  const app = await buildApp({ config, database });
  return {
    app, database, config, clock: systemClock,
    hosting: (opts) => app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}`, ...(opts.headers ?? {}) } }),
  };
}

/** A client with a domain and `count` logged consents. */
async function populate(ctx: TestContext, count: number) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id);
  for (let i = 0; i < count; i++) await sendConsent(ctx, client, domain);
  return { client, domain };
}

async function verifyOn(database: DatabaseHandle, clientId: string, domainId: string) {
  const ctx = await contextOn(database);
  try {
    return await verifyLog({ config: ctx.config, db: database.db, engine: database.engine, clock: systemClock, ids: randomIds, log: ctx.app.log }, clientId, domainId);
  } finally {
    await ctx.app.close();
  }
}

describe('sqlite: backup and restore', () => {
  it('copies a live database with the online backup API, and the restored log verifies', async () => {
    const file = path.join(dir, 'live.sqlite');
    const live = connect({ kind: 'sqlite', file });
    const ctx = await contextOn(live);
    const { client, domain } = await populate(ctx, 25);

    // Consents keep arriving while the backup runs: the copy is consistent at some point in between.
    const backupFile = path.join(dir, 'copy.sqlite');
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${file}` };
    const backup = spawn(process.execPath, ['--import', 'tsx', 'src/cli/backup.ts', backupFile], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    backup.stdout.on('data', (d) => (out += String(d)));
    backup.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => backup.once('exit', resolve));
    for (let i = 0; i < 10; i++) await sendConsent(ctx, client, domain);
    expect(await exited, out).toBe(0);
    await ctx.app.close();
    await live.close();

    expect((fs.statSync(backupFile).mode & 0o777).toString(8)).toBe('600');
    expect(fs.existsSync(`${backupFile}-wal`)).toBe(false);
    const again = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/backup.ts', backupFile], { env, encoding: 'utf8' });
    expect(again.status).toBe(1); // never overwrites

    // Restore: the copy becomes the database file of a new installation.
    const restoredFile = path.join(dir, 'restored', 'placet.sqlite');
    fs.mkdirSync(path.dirname(restoredFile));
    fs.copyFileSync(backupFile, restoredFile);
    const restored = connect({ kind: 'sqlite', file: restoredFile });
    const result = await verifyOn(restored, client.id, domain.id);
    await restored.close();
    expect(result.ok).toBe(true);
    expect(result.checkedRecords).toBeGreaterThanOrEqual(25);
  }, 60_000);
});

describe.runIf(TEST_DATABASE_URL)('postgres: backup and restore', () => {
  it('dumps with pg_dump, restores with psql into a new database, and the log verifies', async () => {
    const url = new URL(TEST_DATABASE_URL!);
    const source = await freshDatabase('postgres');
    const ctx = await contextOn(source);
    const { client, domain } = await populate(ctx, 25);
    await ctx.app.close();

    const dump = path.join(dir, 'placet.sql');
    const dumped = spawnSync('pg_dump', ['--no-owner', '--no-privileges', '-n', source.schema!, '-f', dump, url.toString()], { encoding: 'utf8' });
    expect(dumped.status, dumped.stderr).toBe(0);
    await source.close();

    const restoredDb = `placet_restore_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`create database ${restoredDb}`);
    try {
      const target = new URL(url);
      target.pathname = `/${restoredDb}`;
      const restore = spawnSync('psql', ['-v', 'ON_ERROR_STOP=1', '-q', '-f', dump, target.toString()], { encoding: 'utf8' });
      expect(restore.status, restore.stderr).toBe(0);
      const restored = connect({ kind: 'postgres', url: target.toString() }, { pgSchema: source.schema! });
      try {
        const result = await verifyOn(restored, client.id, domain.id);
        expect(result.ok).toBe(true);
        expect(result.checkedRecords).toBe(25);
      } finally {
        await restored.close();
      }
    } finally {
      await admin.query(`drop database ${restoredDb} with (force)`);
      await admin.end();
    }
  }, 60_000);
});

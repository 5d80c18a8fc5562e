import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_DATABASE_URL } from '../../../test/helper.js';
import type { Engine } from '../../db/database.js';
import { ConsentTokens } from './consent-token.js';

/**
 * "A consent acknowledged with 2xx is committed": a real server process takes consents from 50
 * concurrent senders and is killed with SIGKILL mid-stream (no shutdown hook runs). After a restart
 * every acknowledged ucid must be in the log, and the chain must verify.
 */
const HOSTING_KEY = 'durability-hosting-key-0123456789';
const TOKEN_SECRET = 'durability-token-secret-0123456789abcdef';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-durability-'));
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
let base = '';

/** A database URL for a fresh store: a SQLite file, or a PostgreSQL schema of its own (dropped afterwards). */
async function databaseUrl(dialect: Engine): Promise<string> {
  if (dialect === 'sqlite') return `sqlite:${path.join(dir, 'placet.sqlite')}`;
  const schema = `kill_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
  });
  return `${TEST_DATABASE_URL}${TEST_DATABASE_URL!.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
}

// `node --import tsx` rather than the tsx binary: the binary runs the server in a child process, and a
// SIGKILL to the wrapper would not reach it.
function start(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}

async function waitReady(): Promise<void> {
  // Up to 30 s: starting the server under tsx on a loaded 2-core machine has taken more than 10.
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('server did not become ready');
}

async function hosting<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/hosting/api${url}`, {
    method,
    headers: { authorization: `Bearer ${HOSTING_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: consent durability`, () => {
    // 240 s: two server starts under tsx and 2,000 consents took more than 120 s on a loaded CI machine (stop 52).
    it('keeps every acknowledged consent and a valid chain across a SIGKILL under load', { timeout: 240_000 }, async () => {
      const port = 20000 + Math.floor(Math.random() * 20000);
      base = `http://127.0.0.1:${port}`;
      const env = {
        DATABASE_URL: await databaseUrl(dialect),
        HOSTING_API_KEY: HOSTING_KEY,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        // One sender address and 2000 consents: limits off; a known secret so the test can make widget tokens.
        RATE_LIMITS: 'false',
        CONSENT_TOKEN_SECRET: TOKEN_SECRET,
        CONSENT_LOG_SIGNING_KEY_FILE: path.join(dir, 'signing-key.pem'),
      };
      const first = start(env);
      await waitReady();
      const client = await hosting<{ id: string; apiKey: string }>('POST', '/client', {
        username: 'durable', password: 'correct horse battery', emailAddress: 'durable@example.com',
      });
      const domain = await hosting<{ id: string }>('POST', `/client/${client.id}/domain`, { name: 'shop.example' });
      const embedding = await hosting<{ id: string }>('POST', `/client/${client.id}/domain/${domain.id}/embedding`, {
        name: 'Maps', purpose: '15c61c3',
      });

      const token = new ConsentTokens(Buffer.from(TOKEN_SECRET), 86_400).mint(domain.id, 1, ConsentTokens.issueTime(Math.floor(Date.now() / 1000)));
      // The configuration the widget is served with: each consent names its snapshot.
      const widget = await (await fetch(`${base}/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, { headers: { origin: 'https://shop.example' } })).text();
      const snapshot = /\\"sh\\":\\"([0-9a-f]{64})\\"/.exec(widget)?.[1];
      expect(snapshot).toMatch(/^[0-9a-f]{64}$/);

      const total = 2000;
      const killAfter = 600;
      const acknowledged: string[] = [];
      /** What the server answered other than 204, by status (or the error), for the message if too few were acknowledged. */
      const other: Record<string, number> = {};
      let next = 0;
      let killed = false;
      const exited = new Promise<void>((resolve) => first.once('exit', () => resolve()));
      const sender = async () => {
        while (next < total) {
          next++;
          const ucid = randomBytes(32).toString('hex');
          try {
            const res = await fetch(`${base}/public/consent`, {
              method: 'POST',
              headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://shop.example' },
              body: JSON.stringify({
                apiKey: client.apiKey, domain: domain.id, ucid, consent: true, embeddings: [embedding.id],
                manipulationPrevention: true, button: 'acceptAll', lang: 'en', revision: 1, legalRevision: 1, token, snapshot,
              }),
            });
            if (res.status === 204) acknowledged.push(ucid);
            else other[res.status] = (other[res.status] ?? 0) + 1;
          } catch {
            // the server is gone: this consent was never acknowledged
            other.error = (other.error ?? 0) + 1;
          }
          // Mid-stream whatever the server answers: after `killAfter` acknowledgements, or once three quarters are sent
          // (a loaded server that answered fewer must not leave the test waiting for a kill that never comes).
          if (!killed && (acknowledged.length >= killAfter || next >= total * 0.75)) {
            killed = true;
            first.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 50 }, sender));
      await exited;
      expect(killed).toBe(true);
      expect(first.signalCode).toBe('SIGKILL');
      expect(acknowledged.length, `not acknowledged before the kill: ${JSON.stringify(other)}`).toBeGreaterThanOrEqual(killAfter / 2);
      expect(acknowledged.length).toBeLessThan(total);

      const second = start(env);
      await waitReady();
      const { apiKey } = await hosting<{ apiKey: string }>('POST', `/client/${client.id}/domain-api-key`);
      const logged = (await (await fetch(`${base}/api/domains/${domain.id}/consents?apiKey=${apiKey}`)).json()) as { ucid: string }[];
      const inLog = new Set(logged.map((r) => r.ucid));
      expect(acknowledged.filter((u) => !inLog.has(u))).toEqual([]);
      const verify = await hosting<{ ok: boolean; checkedRecords: number }>('GET', `/client/${client.id}/domain/${domain.id}/consent-log/verify`);
      expect(verify).toMatchObject({ ok: true, checkedRecords: logged.length });

      const done = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await done;
    });
  });
}

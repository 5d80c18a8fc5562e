import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The quick start as a user runs it: a real process on an empty SQLite file, the key it prints, a
 * second process (the rotation CLI) on the same database, and a graceful SIGTERM.
 */
const TSX = path.resolve('node_modules/.bin/tsx');
// The server runs as `node --import tsx`, not under the tsx binary: that binary starts the server as a child
// of its own, and afterAll's SIGKILL to the wrapper would leave the server running after a failed test.
const SERVER = ['--import', 'tsx', 'src/server.ts'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-server-'));
const env = {
  PATH: process.env.PATH ?? '',
  DATABASE_URL: `sqlite:${path.join(dir, 'nested', 'placet.sqlite')}`,
  HOST: '127.0.0.1',
  PORT: String(20000 + Math.floor(Math.random() * 20000)),
  LOG_LEVEL: 'info',
  // A busy machine can delay the client's own idle timer past the server's 5 s, and fetch then reuses a
  // connection the server is closing ("other side closed"); this test is not about keep-alive.
  KEEP_ALIVE_TIMEOUT_MS: '60000',
};
const base = `http://127.0.0.1:${env.PORT}`;
const children: ChildProcess[] = [];

function start(): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, SERVER, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  return { child, output: () => out };
}

async function waitReady(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('placet server process', () => {
  it('starts on an empty SQLite file, prints a key once, serves with it, and shuts down gracefully', async () => {
    const first = start();
    await waitReady();
    const key = /^(plh_[0-9a-f]{64})$/m.exec(first.output())?.[1];
    expect(key).toBeDefined();
    expect(fs.existsSync(path.join(dir, 'nested', 'placet.sqlite'))).toBe(true);
    const list = await fetch(`${base}/hosting/api/client?apiKey=${key}`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([]);
    expect((await fetch(`${base}/hosting/api/client?apiKey=wrong`)).status).toBe(401);

    // The key is printed on a line of its own and nowhere else.
    expect(first.output().split(key!).length - 1).toBe(1);

    const rotate = spawnSync(TSX, ['src/cli/rotate-hosting-key.ts'], { env, encoding: 'utf8' });
    expect(rotate.status).toBe(0);
    const rotated = /^(plh_[0-9a-f]{64})$/m.exec(rotate.stdout)?.[1];
    expect(rotated).toBeDefined();
    expect((await fetch(`${base}/hosting/api/client?apiKey=${key}`)).status).toBe(401);
    expect((await fetch(`${base}/hosting/api/client`, { headers: { authorization: `Bearer ${rotated}` } })).status).toBe(200);

    const done = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await done).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = start();
    await waitReady();
    expect(second.output()).not.toMatch(/^plh_/m);
    const stopped = exited(second.child);
    second.child.kill('SIGINT');
    expect(await stopped).toBe(0);
  }, 60_000);

  it('writes every counted widget call to the database on SIGTERM', async () => {
    const key = 'process-test-hosting-key-0123456789';
    // Every call counts here (all come from one address and page, which would otherwise count once a minute).
    const counted = { ...env, HOSTING_API_KEY: key, COUNTER_FLUSH_INTERVAL_MS: '600000', WIDGET_COUNT_WINDOW_SECONDS: '0' };
    const child = spawn(process.execPath, SERVER, { env: counted, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    await waitReady();
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const client = await (await fetch(`${base}/hosting/api/client`, {
      method: 'POST', headers: auth,
      body: JSON.stringify({ username: `kill${Date.now()}`, password: 'long enough pw', emailAddress: 'k@example.com' }),
    })).json() as { id: string; apiKey: string };
    const domain = await (await fetch(`${base}/hosting/api/client/${client.id}/domain`, {
      method: 'POST', headers: auth, body: JSON.stringify({ name: 'counted.example' }),
    })).json() as { id: string };
    for (let i = 0; i < 25; i++) {
      const res = await fetch(`${base}/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, { headers: { referer: 'https://counted.example/' } });
      expect(res.status).toBe(200);
    }
    const done = exited(child);
    child.kill('SIGTERM');
    expect(await done).toBe(0);
    const again = spawn(process.execPath, SERVER, { env: counted, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(again);
    await waitReady();
    const read = await (await fetch(`${base}/hosting/api/client/${client.id}`, { headers: auth })).json() as { widgetDisplayCount: number };
    expect(read.widgetDisplayCount).toBe(25);
    const stopped = exited(again);
    again.kill('SIGTERM');
    await stopped;
  }, 60_000);

  it('refuses to start with invalid configuration and lists every problem', () => {
    const res = spawnSync(TSX, ['src/server.ts'], {
      env: { PATH: env.PATH, PORT: 'x', DATABASE_URL: 'mysql://nope', PUBLIC_URL: 'nope' },
      encoding: 'utf8',
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('PORT');
    expect(res.stderr).toContain('DATABASE_URL');
    expect(res.stderr).toContain('PUBLIC_URL');
  }, 30_000);
});

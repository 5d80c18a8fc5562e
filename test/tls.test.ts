import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { reloadTls, watchTlsFiles } from '../src/http-server.js';
import { writeSelfSignedCert } from './tls-cert.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-tls-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** GET over HTTPS trusting nothing but checking which certificate the server presented. */
function get(port: number, url: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; fingerprint: string }>((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port, path: url, rejectUnauthorized: false, agent: false }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, fingerprint }));
    });
    req.on('error', reject);
  });
}

/** Puts a new certificate pair in place the way certbot does: written elsewhere, then renamed over. */
function replaceCert(target: { certFile: string; keyFile: string }, name: string): string {
  const fresh = writeSelfSignedCert(dir, name);
  fs.renameSync(fresh.keyFile, target.keyFile);
  fs.renameSync(fresh.certFile, target.certFile);
  return fresh.fingerprint;
}

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, tries = 100): Promise<T> {
  let last = await probe();
  for (let i = 0; i < tries && !ok(last); i++) {
    await new Promise((r) => setTimeout(r, 100));
    last = await probe();
  }
  return last;
}

describe('native TLS', () => {
  it('serves HTTPS with HSTS and picks up a replaced certificate when the files change', async () => {
    const first = writeSelfSignedCert(dir, 'inproc');
    const tls = { certFile: first.certFile, keyFile: first.keyFile };
    const app = await buildApp({ config: testConfig({ database: { kind: 'sqlite', file: ':memory:' }, tls }) });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      const res = await get(port, '/healthz');
      expect(res.status).toBe(200);
      expect(res.fingerprint).toBe(first.fingerprint);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');

      let reloads = 0;
      const unwatch = watchTlsFiles(tls, () => {
        reloadTls(app.server, tls);
        reloads++;
      });
      const second = replaceCert(tls, 'inproc-2');
      const after = await until(() => get(port, '/healthz'), (r) => r.fingerprint === second);
      unwatch();
      expect(after.fingerprint).toBe(second);
      expect(reloads).toBeGreaterThan(0);

      // A key that does not match its certificate is refused and the working pair stays.
      fs.writeFileSync(tls.keyFile, fs.readFileSync(writeSelfSignedCert(dir, 'stray').keyFile));
      expect(() => reloadTls(app.server, tls)).toThrow();
      expect((await get(port, '/healthz')).fingerprint).toBe(second);
    } finally {
      await app.close();
    }
  });

  it('sends no HSTS over plain HTTP', async () => {
    const app = await buildApp({ config: testConfig({ database: { kind: 'sqlite', file: ':memory:' } }) });
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });

  it('the server process reloads its certificate on SIGHUP and on change', async () => {
    const cert = writeSelfSignedCert(dir, 'proc');
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: {
        PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info',
        DATABASE_URL: `sqlite:${path.join(dir, 'proc.sqlite')}`, TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (d) => (out += String(d)));
    child.stderr?.on('data', (d) => (out += String(d)));
    const first = await until(() => get(port, '/readyz').catch(() => undefined), (r) => r?.status === 200, 400);
    expect(first?.fingerprint, out).toBe(cert.fingerprint);

    child.kill('SIGHUP');
    for (let i = 0; i < 100 && !/"reason":"SIGHUP".*TLS certificate reloaded/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    expect(out).toMatch(/"reason":"SIGHUP".*TLS certificate reloaded/);

    const second = replaceCert(cert, 'proc-2');
    const after = await until(() => get(port, '/readyz'), (r) => r.fingerprint === second);
    expect(after.fingerprint).toBe(second);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});

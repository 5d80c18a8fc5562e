import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, redactUrl, type App } from '../src/app.js';
import { keyWeakness, testConfig, type Config } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { AppError } from '../src/errors.js';
import { defaultMaxConnections } from '../src/http-server.js';
import { HOSTING_KEY } from './helper.js';

/** An app listening on a random loopback port, with some settings changed; closed after the describe block. */
function useListeningApp(overrides: Partial<Config> = {}, logLines?: string[]) {
  const ctx = {} as { app: App; port: number };
  beforeAll(async () => {
    const logStream = logLines && new Writable({ write: (chunk, _enc, done) => { logLines.push(String(chunk)); done(); } });
    ctx.app = await buildApp({
      config: testConfig({ hostingApiKey: HOSTING_KEY, database: { kind: 'sqlite', file: ':memory:' }, ...overrides }),
      ...(logStream ? { logStream } : {}),
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ctx.port = (ctx.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => ctx.app?.close());
  return ctx;
}

/** A raw connection: what the server wrote, and whether it closed the connection. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const state = { received: '', closed: false };
  socket.on('data', (d) => (state.received += String(d)));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => { state.closed = true; resolve(); }));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, state, closed, connected };
}

const connections = (changes: Partial<Config['connections']>): Config['connections'] => ({ ...testConfig().connections, ...changes });

describe('timeouts and connection limits', () => {
  const ctx = useListeningApp({ connections: connections({ requestTimeoutMs: 1000, headersTimeoutMs: 1000 }) });

  it('cuts off slow request bodies with 408 and stays healthy', async () => {
    const conns = Array.from({ length: 20 }, () => rawConnection(ctx.port));
    for (const conn of conns) {
      await conn.connected;
      conn.socket.write(`POST /hosting/api/client HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${HOSTING_KEY}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    }
    // One byte every 200 ms would keep each of them open for more than five hours without a request timeout.
    const trickle = setInterval(() => conns.forEach((c) => c.state.closed || c.socket.write(' ')), 200);
    try {
      await Promise.all(conns.map((c) => c.closed));
    } finally {
      clearInterval(trickle);
    }
    for (const conn of conns) {
      expect(conn.state.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(conn.state.received.split('\r\n\r\n')[1]!).error.code).toBe('REQUEST_TIMEOUT');
    }
    expect((await fetch(`http://127.0.0.1:${ctx.port}/healthz`)).status).toBe(200);
  }, 60_000);

  it('cuts off slow request headers the same way', async () => {
    const conn = rawConnection(ctx.port);
    await conn.connected;
    conn.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => conn.state.closed || conn.socket.write('X-A: b\r\n'), 200);
    await conn.closed;
    clearInterval(trickle);
    expect(conn.state.received).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000);

  it('answers malformed requests and oversized headers in the error envelope', async () => {
    const bad = rawConnection(ctx.port);
    await bad.connected;
    bad.socket.write('GARBAGE\r\n\r\n');
    await bad.closed;
    expect(bad.state.received).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad.state.received).toContain('"code":"BAD_REQUEST"');
    const big = await fetch(`http://127.0.0.1:${ctx.port}/healthz`, { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(big.status).toBe(431);
    expect((await big.json()).error.code).toBe('HEADERS_TOO_LARGE');
  });
});

describe('connection limit', () => {
  const ctx = useListeningApp({ connections: connections({ maxConnections: 3 }) });

  it('drops connections beyond MAX_CONNECTIONS and serves again once they close', async () => {
    const held = Array.from({ length: 3 }, () => rawConnection(ctx.port));
    await Promise.all(held.map((c) => c.connected));
    // Wait until the server has accepted all three (a request on each answers).
    for (const conn of held) conn.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    for (let i = 0; i < 100 && held.some((c) => !c.state.received.includes('200 OK')); i++) await new Promise((r) => setTimeout(r, 50));
    const extra = rawConnection(ctx.port);
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await extra.closed;
    expect(extra.state.received).toBe('');
    for (const conn of held) conn.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`http://127.0.0.1:${ctx.port}/healthz`)).status).toBe(200);
  });

  it('defaults to the open-file limit less headroom', () => {
    expect(defaultMaxConnections('Max open files            1024                 1048576              files\n')).toBe(896);
    expect(defaultMaxConnections('nothing here')).toBe(1000);
    expect(defaultMaxConnections()).toBeGreaterThan(0);
  });
});

describe('requests per connection', () => {
  const ctx = useListeningApp({ connections: connections({ maxRequestsPerSocket: 3 }) });

  it('closes a connection after MAX_REQUESTS_PER_SOCKET answers, never with a bare 503', async () => {
    // Five requests sent at once on one connection, as a pipelining client or a load generator does.
    const conn = rawConnection(ctx.port);
    await conn.connected;
    conn.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(5));
    await conn.closed;
    const statuses = [...conn.state.received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
    expect(statuses).toEqual(['200', '200', '200']);
    const answers = conn.state.received.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answers[1]).toMatch(/^connection: keep-alive/im);
    expect(answers[2]).toMatch(/^connection: close/im);
    // A new connection is served as usual.
    expect((await fetch(`http://127.0.0.1:${ctx.port}/healthz`)).status).toBe(200);
  });
});

describe('413 for a large body', () => {
  const ctx = useListeningApp();

  /** Sends 5 MB but stops reading for a moment mid-way, as a slow client does; returns what it read back. */
  function postLarge(chunked: boolean): Promise<string> {
    return new Promise((resolve) => {
      const { socket, state } = rawConnection(ctx.port);
      socket.pause();
      socket.on('error', (e: NodeJS.ErrnoException) => resolve(`ERROR ${e.code} ${state.received}`));
      socket.on('close', () => resolve(state.received));
      const total = 5 * 1024 * 1024;
      socket.write(`POST /hosting/api/client HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${HOSTING_KEY}\r\nContent-Type: application/json\r\n` +
        (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${total}\r\n\r\n`));
      const piece = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += piece.length;
          const data = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
          if (!socket.write(data)) return void socket.once('drain', pump);
          if (sent === 2 * 1024 * 1024) return void setTimeout(pump, 300);
        }
        if (chunked) socket.write('0\r\n\r\n');
        setTimeout(() => socket.resume(), 300);
      };
      pump();
    });
  }

  it('reaches a client that keeps sending, not a connection reset', async () => {
    for (const chunked of [false, true, false, true]) {
      const answer = await postLarge(chunked);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
    }
    expect((await fetch(`http://127.0.0.1:${ctx.port}/healthz`)).status).toBe(200);
  }, 60_000);
});

describe('errors of the router in the envelope', () => {
  const ctx = useListeningApp();

  it('answers malformed percent-encoding with 400 BAD_REQUEST', async () => {
    for (const url of ['/client/%u0000', '/hosting/api/client/%E0%A4%A']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${HOSTING_KEY}` } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.body).not.toContain('FST_');
    }
  });

  it('answers an over-long path parameter with 414 URI_TOO_LONG', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/hosting/api/client/${'a'.repeat(600)}`, headers: { authorization: `Bearer ${HOSTING_KEY}` } });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: { code: 'URI_TOO_LONG', message: expect.any(String) } });
  });
});

describe('security headers', () => {
  const ctx = useListeningApp();

  it('sends nosniff, no-referrer, no-store and a CSP on API answers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/hosting/api/client', headers: { authorization: `Bearer ${HOSTING_KEY}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
    const unauthorized = await ctx.app.inject({ method: 'GET', url: '/hosting/api/client' });
    expect(unauthorized.headers['cache-control']).toBe('no-store');
  });

  it('gives /docs a strict CSP with frame-ancestors and leaves the widget its own caching', async () => {
    const docs = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    const csp = String(docs.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(csp).toContain("style-src 'self' 'sha256-");
    const widget = await ctx.app.inject({ method: 'GET', url: '/public/app.js?apiKey=nope&domain=nope' });
    expect(widget.headers['cache-control']).toBe('no-store');
    expect(widget.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('request ids', () => {
  const lines: string[] = [];
  const ctx = useListeningApp({ logLevel: 'info' }, lines);

  it('takes a plain X-Request-Id, else generates one (random process prefix and counter), and answers with it', async () => {
    const given = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'proxy-abc.123' } });
    expect(given.headers['x-request-id']).toBe('proxy-abc.123');
    const a = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    const b = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\nwith newline' } });
    for (const res of [a, b]) expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    expect(lines.some((l) => l.includes('"reqId":"proxy-abc.123"'))).toBe(true);
  });

  it('never logs a key, percent-encoded or not', async () => {
    const secret = 'pleaseredactme0123456789';
    for (const name of ['apiKey', '%61piKey', 'APIKEY', 'api%4Bey', '%61%70%69%4b%65%79']) {
      await ctx.app.inject({ method: 'GET', url: `/hosting/api/client?x=1&${name}=${secret}` });
    }
    expect(lines.join('')).not.toContain(secret);
    expect(redactUrl('/a?%61piKey=s3cret&b=2')).toBe('/a?%61piKey=[redacted]&b=2');
    expect(redactUrl('/a?b=%zz&apiKey')).toBe('/a?b=%zz&apiKey=[redacted]');
  });
});

describe('a scanned site that is down', () => {
  it('is logged as a warning with SCAN_FAILED and no stack trace, not as an error', async () => {
    const lines: string[] = [];
    const logStream = new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } });
    const app = await buildApp({ config: testConfig({ logLevel: 'info', database: { kind: 'sqlite', file: ':memory:' } }), logStream });
    app.get('/scan-fails', async () => {
      throw new AppError('SCAN_FAILED', [{ message: 'CONNECTION_REFUSED: 127.0.0.1:9' }]);
    });
    const res = await app.inject({ method: 'GET', url: '/scan-fails' });
    await app.close();
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('SCAN_FAILED');
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.code === 'SCAN_FAILED');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, details: [{ message: 'CONNECTION_REFUSED: 127.0.0.1:9' }] });
    expect(lines.join('')).not.toMatch(/"level":50|"stack"/);
  });
});

describe('failed Hosting API key attempts', () => {
  const ctx = useListeningApp({ hostingAuthFailuresPerMinute: 3 });

  it('are throttled per address after the limit, even for the right key, with Retry-After', async () => {
    const wrong = () => ctx.app.inject({ method: 'GET', url: '/hosting/api/client?apiKey=wrong-key', remoteAddress: '198.51.100.7' });
    for (let i = 0; i < 3; i++) expect((await wrong()).statusCode).toBe(401);
    const limited = await wrong();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const right = await ctx.app.inject({ method: 'GET', url: '/hosting/api/client', remoteAddress: '198.51.100.7', headers: { authorization: `Bearer ${HOSTING_KEY}` } });
    expect(right.statusCode).toBe(429);
    const other = await ctx.app.inject({ method: 'GET', url: '/hosting/api/client', remoteAddress: '198.51.100.8', headers: { authorization: `Bearer ${HOSTING_KEY}` } });
    expect(other.statusCode).toBe(200);
  });
});

describe('configured keys', () => {
  it('refuses guessable keys and accepts random ones', () => {
    for (const weak of ['a'.repeat(40), 'abcdefghijklmnopqrstuvwxyz', 'ab'.repeat(20), 'passwordpasswordpassword', 'short']) {
      expect(keyWeakness(weak), weak).toBeDefined();
    }
    for (const strong of ['9f86d081884c7d659a2feaa0c55ad015', 'plh_4e6ecbd5a6be431c083600d964b6183e', HOSTING_KEY]) {
      expect(keyWeakness(strong), strong).toBeUndefined();
    }
  });
});

describe('SQLite files', () => {
  it('are created readable by their owner only, WAL and shared-memory files too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-mode-'));
    const file = path.join(dir, 'sub', 'placet.sqlite');
    const old = process.umask(0o022);
    try {
      const handle = connect({ kind: 'sqlite', file });
      await handle.db.schema.createTable('t').addColumn('x', 'integer').execute();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect((fs.statSync(f).mode & 0o777).toString(8), f).toBe('600');
      expect((fs.statSync(path.dirname(file)).mode & 0o777).toString(8)).toBe('700');
      await handle.close();
      fs.chmodSync(file, 0o644);
      const again = connect({ kind: 'sqlite', file });
      expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
      await again.close();
    } finally {
      process.umask(old);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

import http from 'node:http';
import type net from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type LocalServer } from '../../../test/fixtures/onboarding/test-site.js';
import { EgressProxy, PROXY_ERROR_HEADER } from './egress-proxy.js';
import { TargetGuard } from './target-guard.js';

/** Sends CONNECT host:port to the proxy; resolves with the status line and the socket. */
function connect(proxyUrl: string, target: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; socket: net.Socket }> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, headers: res.headers, socket }));
    req.on('error', reject);
    req.end();
  });
}

function viaProxy(proxyUrl: string, target: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: proxy.hostname, port: proxy.port, path: target, headers: { host: new URL(target).host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('scanner egress proxy', () => {
  let site: LocalServer;
  let proxy: EgressProxy;
  let url: string;
  beforeAll(async () => {
    site = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'a=1' }).end('hello'));
    // 127.0.0.1 is trusted by the test seam; every other private address stays refused.
    proxy = new EgressProxy(new TargetGuard({ allowPrivateNetworks: false, trustedHosts: ['127.0.0.1'] }), Fastify({ logger: false }).log);
    url = await proxy.start();
  });
  afterAll(async () => {
    await proxy?.close();
    await site?.close();
  });

  it('forwards plain HTTP requests to allowed targets, headers included', async () => {
    const res = await viaProxy(url, `http://127.0.0.1:${site.port}/x`);
    expect(res).toMatchObject({ status: 200, body: 'hello' });
    expect(res.headers['set-cookie']).toEqual(['a=1']);
  });

  it('answers 403 with a reason header for forbidden HTTP targets, without contacting them', async () => {
    const before = site.requests.length;
    const res = await viaProxy(url, `http://localhost:${site.port}/`);
    expect(res.status).toBe(403);
    expect(res.headers[PROXY_ERROR_HEADER]).toBe('FORBIDDEN');
    expect(site.requests.length).toBe(before);
  });

  it('answers 502 with the reason for unreachable HTTP targets', async () => {
    const closed = await serve(() => undefined);
    await closed.close();
    const res = await viaProxy(url, `http://127.0.0.1:${closed.port}/`);
    expect(res.status).toBe(502);
    expect(res.headers[PROXY_ERROR_HEADER]).toBe('CONNECTION_REFUSED');
  });

  it('tunnels CONNECT to allowed targets (how Chromium reaches https sites)', async () => {
    const { status, socket } = await connect(url, `127.0.0.1:${site.port}`);
    expect(status).toBe(200);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('end', () => resolve(text));
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200[\s\S]*hello/);
  });

  it.each([
    ['10.0.0.1:443', 'FORBIDDEN', 403],
    ['169.254.169.254:80', 'FORBIDDEN', 403],
    ['[::1]:443', 'FORBIDDEN', 403],
  ])('refuses CONNECT %s and remembers why', async (target, reason, status) => {
    const res = await connect(url, target);
    expect(res.status).toBe(status);
    expect(res.headers[PROXY_ERROR_HEADER]).toBe(reason);
    expect(proxy.failureFor(target.replace(/[[\]]/g, ''))).toBe(reason);
    res.socket.destroy();
  });
});

import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { buildApp, type App } from '../src/app.js';
import { testConfig, type Config } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/connect.js';
import { freshDatabase } from './helper.js';
import { writeSelfSignedCert } from './tls-cert.js';

/** Debian's Chromium, driven by playwright-core (no downloaded browser). */
export const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p && fs.existsSync(p),
);

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('Chromium not found: apt-get install -y chromium (npm test installs it as root)');
  return chromium.launch({
    executablePath: CHROMIUM,
    // `*.test` names all reach 127.0.0.1, so tests can serve one site under several host names
    // (subdomains and other registrable domains) without touching the machine's resolver.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', '--no-first-run', '--host-resolver-rules=MAP *.test 127.0.0.1'],
  });
}

export interface Site {
  url: string;
  port: number;
  /** Paths requested so far, in order. */
  hits: string[];
  /** `html` as parts: each is sent and flushed 300 ms after the one before, as a slow network delivers a page. */
  setPage(path: string, html: string | string[], headers?: Record<string, string>): void;
  close(): Promise<void>;
}

/**
 * A tiny website on 127.0.0.1 whose pages the tests write; it records every request path. `urlHost`
 * `localhost` makes it another site than 127.0.0.1 (a third party) on the same machine.
 */
export async function serveSite(urlHost = '127.0.0.1'): Promise<Site> {
  const pages = new Map<string, string | string[]>();
  const pageHeaders = new Map<string, Record<string, string>>();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const path = (req.url ?? '/').split('?')[0]!;
    const body = pages.get(path);
    if (body === undefined) {
      res.writeHead(path.endsWith('.js') ? 200 : 404, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/plain' });
      // Unknown scripts log themselves, so tests can see which ones ran.
      res.end(path.endsWith('.js') ? `(window.ran = window.ran || []).push(${JSON.stringify(path)});` : 'not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...pageHeaders.get(path) });
    if (typeof body === 'string') return void res.end(body);
    const parts = [...body];
    const next = () => {
      res.write(parts.shift()!);
      if (parts.length > 0) setTimeout(next, 300);
      else res.end();
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    hits,
    setPage: (path, html, headers) => {
      pages.set(path, html);
      if (headers) pageHeaders.set(path, headers);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A free TCP port on 127.0.0.1 (the app must know its public URL before it listens). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Hosting API call with the agency key through `app.inject`; anything but a 2xx throws with the answer. */
export async function hostingCall(app: App, key: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const res = await app.inject({ method, url: `/hosting/api${url}`, headers: { authorization: `Bearer ${key}` }, payload: payload as object });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * The domain's consent records through the Domain API, once `expected` have arrived (the widget's beacon is
 * asynchronous); after `timeoutMs` whatever is there, so the caller's assertion shows what is missing.
 */
export async function domainRecords(app: App, s: { domainId: string; domainApiKey: string }, expected: number, timeoutMs = 5000): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/domains/${s.domainId}/consents?apiKey=${s.domainApiKey}` });
    const list = res.statusCode === 200 ? (res.json() as Record<string, unknown>[]) : [];
    if (list.length >= expected || Date.now() > deadline) return list;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface BrowserApp {
  app: App;
  database: DatabaseHandle;
  /** The app's public URL (http://127.0.0.1:port), known to its configuration before it listens. */
  appUrl: string;
  /** The stand-in website on 127.0.0.1 whose pages embed the widget. */
  site: Site;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * The start-up the browser suites share: the app on a fresh SQLite database, listening on a free port with
 * that port in its public URL (the snippet and the widget name it), a stand-in site, and Chromium.
 */
export async function startBrowserApp(hostingApiKey: string, overrides: Partial<Config> = {}): Promise<BrowserApp> {
  const site = await serveSite('127.0.0.1');
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const database = await freshDatabase('sqlite');
  const app = await buildApp({ config: testConfig({ hostingApiKey, publicUrl: appUrl, ...overrides }), database });
  await app.listen({ port, host: '127.0.0.1' });
  const browser = await launchBrowser();
  return {
    app, database, appUrl, site, browser,
    async close() {
      await browser.close();
      await app.close();
      await database.close();
      await site.close();
    },
  };
}

export interface VendorStandIn {
  /** Chromium with `hosts` resolved to the stand-in (certificate errors ignored: the stand-in's is self-signed). */
  browser: Browser;
  /** What reached the stand-in since the last reset: TCP connections (a preconnect opens one and sends nothing) and requests. */
  seen: { connections: number; requests: string[] };
  reset(): void;
  close(): Promise<void>;
}

/**
 * Vendor hosts answered by one local HTTPS server through `--host-resolver-rules`, in a Chromium of their own: the
 * server sees every connection and request of the page, of its workers and of its service workers (which Playwright
 * routes may not see), as `<host><path>`. `answer` writes the response.
 */
export async function vendorStandIn(hosts: readonly string[], answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<VendorStandIn> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-vendor-'));
  const { certFile, keyFile } = writeSelfSignedCert(dir);
  const seen = { connections: 0, requests: [] as string[] };
  const server = https.createServer({ cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) }, (req, res) => {
    seen.requests.push(`${req.headers.host}${req.url}`);
    answer(req, res);
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  if (!CHROMIUM) throw new Error('Chromium not found: apt-get install -y chromium (npm test installs it as root)');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', '--no-first-run',
      '--ignore-certificate-errors',
      `--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ')}`,
    ],
  });
  return {
    browser,
    seen,
    reset() {
      seen.connections = 0;
      seen.requests = [];
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

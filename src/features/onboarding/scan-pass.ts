import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { BrowserContext } from 'playwright-core';
import type { Db } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import { getSetting, insertSettingIfAbsent } from '../hosting-auth/hosting-auth.repository.js';

/**
 * The scanner's pass through Placet's own widget (docs/onboarding.md, "A site that already has the
 * widget"). The scan's browser adds this header to its requests for `/public/app.js`; a valid pass makes
 * the widget delivery answer with an inert script (no blocking, no banner, not counted), so the scan
 * sees what the site loads by itself. Visitors cannot use it: the pass is an HMAC over the domain id and
 * an expiry with a server secret that never leaves the server, and it lives only as long as one scan.
 */
export const SCAN_PASS_HEADER = 'x-placet-scan-pass';

const SECRET_SETTING = 'scan_pass_hmac_key';
/** A pass outlives the longest scan (SCAN_TIMEOUT_MS is at most 10 minutes) by a little. */
const MAX_LIFETIME_MS = 11 * 60_000;
const PASS = /^v1\.([0-9a-z]{1,16})\.(\d{13})\.([A-Za-z0-9_-]{43})$/;

/**
 * The HMAC key, generated once per installation and kept in the `settings` table, so that every process
 * on one database issues and accepts the same passes. It is an HMAC key, not a password: it cannot be
 * stored hashed; it is never logged and never sent anywhere.
 */
const secrets = new WeakMap<Db, Promise<Buffer>>();
function secretOf(deps: Pick<Deps, 'db' | 'ids'>): Promise<Buffer> {
  let secret = secrets.get(deps.db);
  if (!secret) {
    secret = (async () => {
      await insertSettingIfAbsent(deps.db, SECRET_SETTING, deps.ids.hex(32));
      const stored = await getSetting(deps.db, SECRET_SETTING);
      if (!stored) throw new Error('the scan pass key could not be stored');
      return Buffer.from(stored, 'hex');
    })();
    secret.catch(() => secrets.delete(deps.db));
    secrets.set(deps.db, secret);
  }
  return secret;
}

const mac = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** A pass for one domain, valid for `lifetimeMs`. */
export async function issueScanPass(deps: Pick<Deps, 'db' | 'ids' | 'clock'>, domainId: string, lifetimeMs: number): Promise<string> {
  const expires = deps.clock.now().getTime() + Math.min(lifetimeMs, MAX_LIFETIME_MS);
  const payload = `v1.${domainId}.${expires}`;
  return `${payload}.${mac(await secretOf(deps), payload)}`;
}

/** True when `pass` was issued by this installation for `domainId` and has not expired. */
export async function verifyScanPass(deps: Pick<Deps, 'db' | 'ids' | 'clock'>, pass: string, domainId: string): Promise<boolean> {
  const match = PASS.exec(pass);
  if (!match || match[1] !== domainId) return false;
  const expires = Number(match[2]);
  const now = deps.clock.now().getTime();
  if (expires <= now || expires > now + MAX_LIFETIME_MS) return false;
  const expected = Buffer.from(mac(await secretOf(deps), `v1.${match[1]}.${match[2]}`));
  const presented = Buffer.from(match[3]!);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export interface ScanPassResponse {
  status: 200;
  headers: Record<string, string>;
  body: string;
}

/**
 * For the widget delivery (`GET /public/app.js`): the inert script when the request carries a valid pass
 * for the requested domain, else undefined (the normal widget). `no-store, private` keeps a shared cache
 * from ever handing the inert script to a visitor.
 */
export async function scanPassResponse(
  deps: Deps,
  headers: IncomingHttpHeaders,
  domainId: string | undefined,
): Promise<ScanPassResponse | undefined> {
  const pass = headers[SCAN_PASS_HEADER];
  if (typeof pass !== 'string' || domainId === undefined || !(await verifyScanPass(deps, pass, domainId))) return undefined;
  return {
    status: 200,
    headers: { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store, private' },
    body: '/* Placet: inactive for the website scan */',
  };
}

/** Exactly Placet's widget script under PUBLIC_URL (any query), as the browser writes its address. */
export function widgetScriptPattern(publicUrl: string): RegExp {
  const url = new URL(publicUrl); // as the browser writes it: lower-case host, no default port
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${base}/public/(?:app|ccm19)\\.js(?:[?#]|$)`);
}

/** Makes the scan's browser carry the pass on its requests for Placet's widget script, and only there. */
export async function presentScanPass(context: BrowserContext, publicUrl: string, pass: string): Promise<void> {
  // No other request ever carries the pass.
  const widget = widgetScriptPattern(publicUrl);
  await context.route(widget, (route) => route.continue({ headers: { ...route.request().headers(), [SCAN_PASS_HEADER]: pass } }));
}

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { testConfig, type TcfConfig } from '../src/config.js';

const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'tcf');
export const GVL_V1 = fs.readFileSync(path.join(fixtures, 'vendor-list.json'), 'utf8');
/** Version 2 of the fixture: vendor 77 joins. */
export const GVL_V2 = fs.readFileSync(path.join(fixtures, 'vendor-list-v2.json'), 'utf8');
const PURPOSES_DE = fs.readFileSync(path.join(fixtures, 'purposes-de.json'), 'utf8');

/**
 * A local stand-in for the IAB's vendor-list.consensu.org serving the fixtures (no test reaches the
 * internet): `vendorList` is what the next fetch gets, so a test can publish a new GVL version.
 */
export interface GvlServer {
  url: string;
  vendorList: string;
  requests: number;
  close(): Promise<void>;
}

export async function startGvlServer(): Promise<GvlServer> {
  const state = { vendorList: GVL_V1, requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests++;
    const body = req.url === '/v3/vendor-list.json' ? state.vendorList : req.url === '/v3/purposes-de.json' ? PURPOSES_DE : undefined;
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(body ?? '{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v3/vendor-list.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** TCF settings for a test app: CMP id 300 (a test value), the stand-in GVL, no schedule, a temporary cache. */
export function tcfTestConfig(gvlUrl: string, overrides: Partial<TcfConfig> = {}): TcfConfig {
  return {
    ...testConfig().tcf,
    cmpId: 300,
    cmpVersion: 2,
    gvlUrl,
    gvlRefreshHours: 0,
    gvlCacheDir: fs.mkdtempSync(path.join(os.tmpdir(), 'placet-gvl-')),
    ...overrides,
  };
}

import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.js';
import { DIALECTS, createClient, createDomain, sendConsent, useApp, type TestContext } from './helper.js';

const TOKEN = '7d2f4c9a81e0b3f65a1c4e8d2b7f9031';

/** The value of one sample line of the exposition, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const scrape = async (ctx: TestContext) => {
  const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
};

/** A port nobody listens on: the scanned site is down. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  const ctx = useApp('sqlite');
  it('does not exist', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: GET /metrics`, () => {
    const ctx = useApp(dialect, {
      metricsToken: TOKEN,
      scan: { ...testConfig().scan, allowPrivateNetworks: true, chromiumPath: '/nonexistent' },
    });

    it('needs the token', async () => {
      for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`]) {
        const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('UNAUTHORIZED');
      }
    });

    it('counts requests per route, consents and their batches, widget cache hits, scans and the pool', async () => {
      const before = await scrape(ctx);
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id, { name: 'metrics.example' });
      for (let i = 0; i < 3; i++) await sendConsent(ctx, client, domain);
      for (let i = 0; i < 2; i++) {
        const res = await ctx.app.inject({ method: 'GET', url: `/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}`, headers: { referer: 'https://metrics.example/' } });
        expect(res.statusCode).toBe(200);
      }
      await ctx.app.inject({ method: 'GET', url: '/healthz' });
      const down = await createDomain(ctx, client.id, { name: `http://127.0.0.1:${await closedPort()}/` });
      const scan = await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${down.id}/onboarding/scan` });
      expect(scan.json().error.code).toBe('SCAN_FAILED');

      const after = await scrape(ctx);
      const delta = (series: string) => sample(after, series) - sample(before, series);
      expect(delta('placet_consents_ingested_total')).toBe(3);
      expect(delta('placet_consent_ingest_batch_size_count')).toBeGreaterThanOrEqual(1);
      expect(delta('placet_consent_ingest_batch_size_sum')).toBe(3);
      expect(delta('placet_widget_cache_requests_total{result="miss"}')).toBeGreaterThanOrEqual(1);
      expect(delta('placet_widget_cache_requests_total{result="hit"}')).toBeGreaterThanOrEqual(1);
      expect(delta('placet_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}')).toBe(1);
      expect(delta('placet_http_request_duration_seconds_count{method="POST",route="/public/consent",status="204"}')).toBe(3);
      expect(delta('placet_scan_duration_seconds_count{outcome="failed"}')).toBe(1);
      expect(after).toMatch(/^placet_consent_queue_depth \d+$/m);
      expect(after).toMatch(/^placet_process_cpu_seconds_total /m);
      // Route patterns, never raw URLs: no key or id becomes a label.
      expect(after).not.toContain(client.apiKey);
      if (dialect === 'postgres') expect(sample(after, 'placet_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    }, 60_000);
  });
}

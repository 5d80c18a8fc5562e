import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createDomain, useApp, type TestContext } from '../../../test/helper.js';
import { startTestSites, type TestSites } from '../../../test/fixtures/onboarding/test-site.js';

async function scan(ctx: TestContext, name: string) {
  const client = await createClient(ctx);
  const domain = await createDomain(ctx, client.id, { name });
  return ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}/domain/${domain.id}/onboarding/scan` });
}

describe('GET …/onboarding/scan SSRF protection (SCAN_ALLOW_PRIVATE_NETWORKS=false)', () => {
  const ctx = useApp('sqlite');
  let sites: TestSites;
  beforeAll(async () => {
    sites = await startTestSites();
  });
  afterAll(async () => sites?.close());

  it.each([
    ['loopback', () => sites.siteUrl],
    ['loopback by name', () => `http://localhost:${sites.site.port}`],
    ['a private range', () => 'http://10.20.30.40'],
    ['another private range', () => 'http://192.168.1.1:8080'],
    ['the cloud metadata address', () => 'http://169.254.169.254'],
    ['the metadata host name', () => 'http://metadata.google.internal'],
  ])('refuses %s with 400 SCAN_TARGET_FORBIDDEN', async (_label, name) => {
    const before = sites.site.requests.length;
    const res = await scan(ctx, name());
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'SCAN_TARGET_FORBIDDEN',
      details: [{ field: 'website', message: expect.stringContaining('SCAN_ALLOW_PRIVATE_NETWORKS') }],
    });
    expect(sites.site.requests.length).toBe(before);
  });
});

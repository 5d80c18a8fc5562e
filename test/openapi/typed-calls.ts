import createClient from 'openapi-fetch';
import type { paths } from '../../console/src/placet-api.js';

/**
 * Real calls through a client typed by the generated OpenAPI types (openapi-fetch). The compiler checks
 * every path, parameter, body and answer here against the document; `openapi.test.ts` runs them against a
 * listening Placet. A schema change that breaks this file fails `npm run typecheck` and the test.
 */
export async function exerciseApi(baseUrl: string, hostingKey: string) {
  const hosting = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${hostingKey}` } });
  const apiKey = 'ab'.repeat(24);
  const created = await hosting.POST('/hosting/api/client', {
    body: { username: `typed${Date.now()}`, emailAddress: 'typed@example.com', password: 'correct horse battery', apiKey },
  });
  if (!created.data) throw new Error(`create client: ${JSON.stringify(created.error)}`);
  const clientId: string = created.data.id;

  const taken = await hosting.POST('/hosting/api/client', {
    body: { username: `typed2${Date.now()}`, emailAddress: 'typed@example.com', password: 'correct horse battery', apiKey },
  });
  const takenCode: string | undefined = taken.error?.error.code;

  const domain = await hosting.POST('/hosting/api/client/{clientId}/domain', {
    params: { path: { clientId } },
    body: { id: 'abc1234', name: 'https://typed.example/shop/', country: 'DE' },
  });
  if (!domain.data) throw new Error(`create domain: ${JSON.stringify(domain.error)}`);

  const embedding = await hosting.POST('/hosting/api/client/{clientId}/domain/{domainId}/embedding', {
    params: { path: { clientId, domainId: domain.data.id } },
    body: {
      name: 'Typed Analytics',
      purpose: 'a717ff5',
      translations: { de_DE: { name: 'Typisierte Analyse' } },
      assets: [{ name: '_typed', storageType: 'cookie', translations: { de_DE: { lifetime: '1 Jahr' } } }],
    },
  });
  if (!embedding.data) throw new Error(`create embedding: ${JSON.stringify(embedding.error)}`);

  const presets = await hosting.GET('/hosting/api/onboarding/presets', { params: { query: { search: 'analytics', limit: 5 } } });
  const domainApiKey = await hosting.POST('/hosting/api/client/{clientId}/domain-api-key', { params: { path: { clientId } } });
  if (!domainApiKey.data) throw new Error('domain api key');

  // The Domain API with its key in a header instead of ?apiKey=.
  const domainApi = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${domainApiKey.data.apiKey}` } });
  const domains = await domainApi.GET('/api/domains', {});
  const test = await domainApi.GET('/api/test');

  return {
    client: created.data,
    takenCode,
    domain: domain.data,
    embedding: embedding.data,
    presetNames: presets.data?.items.map((p) => p.name) ?? [],
    presetTotal: presets.data?.total,
    domainApiDomains: domains.data?.map((d) => d.id) ?? [],
    domainApiKey: domainApiKey.data.apiKey,
    domainApiTestUser: test.data?.username,
  };
}

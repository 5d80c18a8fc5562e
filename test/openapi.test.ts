import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPES_FILE, generateTypes, openApiDocument, redoclyLint } from '../scripts/openapi.js';
import { DIALECTS, HOSTING_KEY, createClient, createDomain, useApp } from './helper.js';
import { exerciseApi } from './openapi/typed-calls.js';

type Operation = { operationId?: string; summary?: string; security?: Array<Record<string, string[]>> };
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

describe('the OpenAPI document', () => {
  let document: Record<string, unknown>;
  beforeAll(async () => {
    document = await openApiDocument();
  });
  const operations = () =>
    Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ path, method, op })),
    );

  it('validates with swagger-parser (OpenAPI 3.0: no propertyNames; key rules travel as x-propertyNames)', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    const text = JSON.stringify(document);
    expect(text).not.toContain('"propertyNames"');
    expect(text).toContain('"x-propertyNames"');
  });

  it('has no errors under Redocly\'s recommended lint rules', { timeout: 60_000 }, () => {
    const report = redoclyLint(document);
    expect(report.totals.errors).toBe(0);
  });

  it('gives every operation a unique, stable operationId and a summary', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(50);
    const ids = ops.map((o) => o.op.operationId);
    for (const o of ops) {
      expect(o.op.operationId, `${o.method} ${o.path}`).toMatch(/^[a-z]+[A-Z][A-Za-z0-9]*$/);
      expect(o.op.summary, `${o.method} ${o.path}`).toBeTruthy();
    }
    expect(new Set(ids).size).toBe(ids.length);
    const byRoute = Object.fromEntries(ops.map((o) => [`${o.method} ${o.path}`, o.op.operationId]));
    expect(byRoute).toMatchObject({
      'post /hosting/api/client': 'postClient',
      'get /hosting/api/client/{clientId}/domain/{domainId}': 'getClientByClientIdDomainByDomainId',
      'get /hosting/api/onboarding/presets': 'getOnboardingPresets',
      'get /api/domains': 'getDomainApiDomains',
    });
  });

  it('documents the Domain API key in the query and in Authorization: Bearer', () => {
    const domainApi = operations().filter((o) => o.path.startsWith('/api/'));
    expect(domainApi.length).toBeGreaterThanOrEqual(4);
    for (const o of domainApi) expect(o.op.security).toEqual([{ apiKeyQuery: [] }, { bearer: [] }]);
  });

  it('generates the committed TypeScript types (npm run openapi:types), so the typed calls check the current API', async () => {
    expect(await generateTypes(document)).toBe(readFileSync(TYPES_FILE, 'utf8'));
  });

  it('type-checks the typed calls against the generated types', { timeout: 120_000 }, () => {
    const file = fileURLToPath(new URL('./openapi/typed-calls.ts', import.meta.url));
    const program = ts.createProgram([file], {
      strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: a client generated from the OpenAPI document, against a listening Placet`, () => {
    const ctx = useApp(dialect);
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await ctx.app.close();
    });

    it('makes real typed calls: given apiKey and domain id, embeddings, presets, Domain API with a header key', async () => {
      const result = await exerciseApi(baseUrl, HOSTING_KEY);
      expect(result.client.apiKey).toBe('ab'.repeat(24));
      expect(result.takenCode).toBe('API_KEY_TAKEN');
      expect(result.domain).toMatchObject({ id: 'abc1234', name: 'typed.example', path: '/shop/', country: 'DE' });
      expect(result.embedding).toMatchObject({ name: 'Typed Analytics', translations: { de_DE: { name: 'Typisierte Analyse' } } });
      expect(result.embedding.assets).toHaveLength(1);
      expect(result.presetTotal).toBeGreaterThan(0);
      expect(result.presetNames.length).toBeGreaterThan(0);
      expect(result.domainApiDomains).toEqual(['abc1234']);
      expect(result.domainApiTestUser).toBe(result.client.username);
      // The query parameter still works, and a wrong header key is a 401.
      const viaQuery = await fetch(`${baseUrl}/api/test?apiKey=${result.domainApiKey}`);
      expect(viaQuery.status).toBe(200);
      const wrong = await fetch(`${baseUrl}/api/test`, { headers: { authorization: 'Bearer pdk_wrong' } });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).error.code).toBe('UNAUTHORIZED');
    });

    it('still refuses a wrong locale key in translations and a wrong purpose id in purposeNames (x-propertyNames)', async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
      const embedding = await ctx.hosting({
        method: 'POST', url: `${base}/embedding`, payload: { name: 'X', purpose: 'a717ff5', translations: { 'not a locale': {} } },
      });
      expect(embedding.statusCode).toBe(400);
      expect(embedding.json().error.details[0].field).toBe('body.translations');
      const locale = await ctx.hosting({ method: 'POST', url: `${base}/locale`, payload: { name: 'de_DE', purposeNames: { nope: 'x' } } });
      expect(locale.statusCode).toBe(400);
      expect(locale.json().error.details[0].field).toBe('body.purposeNames');
    });
  });
}

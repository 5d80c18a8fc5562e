import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, useApp } from '../../../test/helper.js';
import { DOMAIN_DEFAULTS } from './domains.schemas.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: domains`, () => {
    const ctx = useApp(dialect);
    const base = (clientId: string) => `/hosting/api/client/${clientId}/domain`;

    describe('POST /client/:clientId/domain', () => {
      it('creates a domain with a 7-hex id, the host as name, the path apart and every default', async () => {
        const client = await createClient(ctx);
        const res = await ctx.hosting({
          method: 'POST',
          url: base(client.id),
          payload: { name: 'https://www.mysite.example/website2/' },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({
          id: expect.stringMatching(/^[0-9a-f]{7}$/),
          name: 'www.mysite.example',
          path: '/website2/',
          whitelabel: false,
          ...DOMAIN_DEFAULTS,
        });
      });

      it('keeps the port in the name', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id, { name: 'site.example:8443' });
        expect(domain.name).toBe('site.example:8443');
      });

      it('stores given settings', async () => {
        const client = await createClient(ctx);
        const res = await ctx.hosting({
          method: 'POST',
          url: base(client.id),
          payload: {
            name: 'settings.example',
            country: 'DE',
            consentStorage: 'cookie',
            consentResetBeforeDate: '2026-01-31',
            iframeMarkers: ['youtube.com'],
            tcfVendorBlacklist: [1, 2],
            cookieDeclarationTableHeadingStartLevel: 2,
          },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          country: 'DE',
          consentStorage: 'cookie',
          consentResetBeforeDate: '2026-01-31',
          iframeMarkers: ['youtube.com'],
          tcfVendorBlacklist: [1, 2],
          cookieDeclarationTableHeadingStartLevel: 2,
        });
      });

      it.each([
        ['name', 'not a host'],
        ['name', 'ftp://site.example'],
        ['name', ''],
        ['country', 'de'],
        ['country', 'DEU'],
        ['consentStorage', 'indexedDb'],
        ['consentCookieLifetime', -1],
        ['consentCookieLifetime', 'a year'],
        ['consentResetBeforeDate', '2026-13-01'],
        ['consentResetBeforeDate', '31.01.2026'],
        ['managementStructure', 'tree'],
        ['iframeBlockMode', 'greylist'],
        ['imprintDisplayMode', 'popup'],
        ['privacyPolicyDisplayMode', 'popup'],
        ['accessibilityDisplayMode', 'popup'],
        ['cookieDeclarationTableHeadingStartLevel', 1],
        ['cookieDeclarationTableHeadingStartLevel', 6],
        ['blockedScriptMarkers', 'not-a-list'],
        ['blockedScriptMarkers', ['']],
        ['iframeMarkers', Array.from({ length: 201 }, (_, i) => `m${i}`)],
        ['tcfVendorBlacklist', ['1']],
        ['whitelabel', 'yes'],
        ['frontendWidgetEnabled', 0],
      ])('rejects %s = %j with a detail naming the field', async (field, value) => {
        const client = await createClient(ctx);
        const res = await ctx.hosting({
          method: 'POST',
          url: base(client.id),
          payload: { name: 'valid.example', [field]: value },
        });
        expect(res.statusCode).toBe(400);
        const details = res.json().error.details as { field: string }[];
        expect(details.some((d) => d.field.startsWith(`body.${field}`))).toBe(true);
        const list = await ctx.hosting({ method: 'GET', url: base(client.id) });
        expect(list.json()).toEqual([]);
      });

      it('requires a name', async () => {
        const client = await createClient(ctx);
        const res = await ctx.hosting({ method: 'POST', url: base(client.id), payload: {} });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details).toEqual([{ field: 'body.name', message: 'is required' }]);
      });

      it('refuses a second domain with the same host and path for one client', async () => {
        const client = await createClient(ctx);
        await createDomain(ctx, client.id, { name: 'twice.example' });
        const res = await ctx.hosting({ method: 'POST', url: base(client.id), payload: { name: 'https://TWICE.example/' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('DOMAIN_NAME_TAKEN');
        await createDomain(ctx, client.id, { name: 'twice.example/other/' });
        const other = await createClient(ctx);
        await createDomain(ctx, other.id, { name: 'twice.example' });
      });

      it('answers 404 for an unknown client', async () => {
        const res = await ctx.hosting({ method: 'POST', url: base('0000000'), payload: { name: 'a.example' } });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('CLIENT_NOT_FOUND');
      });
    });

    describe('quotas', () => {
      it('refuses a domain beyond domainMaxCount with DOMAIN_LIMIT_REACHED', async () => {
        const client = await createClient(ctx, { domainMaxCount: 2 });
        await createDomain(ctx, client.id);
        await createDomain(ctx, client.id);
        const res = await ctx.hosting({ method: 'POST', url: base(client.id), payload: { name: 'third.example' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('DOMAIN_LIMIT_REACHED');
        expect((await ctx.hosting({ method: 'GET', url: base(client.id) })).json()).toHaveLength(2);
      });

      it('allows no domain at all with domainMaxCount 0 and any number with -1', async () => {
        const none = await createClient(ctx, { domainMaxCount: 0 });
        const res = await ctx.hosting({ method: 'POST', url: base(none.id), payload: { name: 'a.example' } });
        expect(res.json().error.code).toBe('DOMAIN_LIMIT_REACHED');
        const unlimited = await createClient(ctx, { domainMaxCount: -1 });
        for (let i = 0; i < 5; i++) await createDomain(ctx, unlimited.id);
      });

      it('holds the limit under concurrent creation', async () => {
        const client = await createClient(ctx, { domainMaxCount: 3 });
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            ctx.hosting({ method: 'POST', url: base(client.id), payload: { name: `race${i}.example` } }),
          ),
        );
        expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
        expect(results.filter((r) => r.statusCode === 400)).toHaveLength(5);
        expect((await ctx.hosting({ method: 'GET', url: base(client.id) })).json()).toHaveLength(3);
      });

      it('refuses white-label domains beyond whitelabelMaxCount, on create and on update', async () => {
        const client = await createClient(ctx, { whitelabelMaxCount: 1 });
        await createDomain(ctx, client.id, { whitelabel: true });
        const create = await ctx.hosting({
          method: 'POST',
          url: base(client.id),
          payload: { name: 'wl2.example', whitelabel: true },
        });
        expect(create.statusCode).toBe(400);
        expect(create.json().error.code).toBe('WHITELABEL_LIMIT_REACHED');
        const plain = await createDomain(ctx, client.id);
        const update = await ctx.hosting({
          method: 'PUT',
          url: `${base(client.id)}/${plain.id}`,
          payload: { whitelabel: true },
        });
        expect(update.statusCode).toBe(400);
        expect(update.json().error.code).toBe('WHITELABEL_LIMIT_REACHED');
        const read = (await ctx.hosting({ method: 'GET', url: `/hosting/api/client/${client.id}` })).json();
        expect(read.whitelabelCount).toBe(1);
        expect(read.domainCount).toBe(2);
      });
    });

    describe('GET', () => {
      it('lists the client\'s domains only, and reads one', async () => {
        const a = await createClient(ctx);
        const b = await createClient(ctx);
        const d1 = await createDomain(ctx, a.id);
        const d2 = await createDomain(ctx, a.id);
        await createDomain(ctx, b.id);
        const list = await ctx.hosting({ method: 'GET', url: base(a.id) });
        expect(list.statusCode).toBe(200);
        expect(list.json().map((d: { id: string }) => d.id).sort()).toEqual([d1.id, d2.id].sort());
        const one = await ctx.hosting({ method: 'GET', url: `${base(a.id)}/${d1.id}` });
        expect(one.statusCode).toBe(200);
        expect(one.json().name).toBe(d1.name);
      });

      it('answers 404 for an unknown client or domain', async () => {
        const a = await createClient(ctx);
        expect((await ctx.hosting({ method: 'GET', url: base('0000000') })).statusCode).toBe(404);
        const res = await ctx.hosting({ method: 'GET', url: `${base(a.id)}/0000000` });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('DOMAIN_NOT_FOUND');
      });
    });

    describe('PUT', () => {
      it('merges, re-parses the name, and bumps the configuration revision only on a real change', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id, { name: 'old.example', country: 'AT', iframeMarkers: ['a'] });
        const revision = async () =>
          (await ctx.database.db.selectFrom('domains').select('config_revision').where('id', '=', domain.id).executeTakeFirstOrThrow())
            .config_revision;
        const r0 = await revision();
        const res = await ctx.hosting({
          method: 'PUT',
          url: `${base(client.id)}/${domain.id}`,
          payload: { name: 'http://new.example:8080/blog/', consentStorage: 'sessionStorage' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: domain.id,
          name: 'new.example:8080',
          path: '/blog/',
          country: 'AT',
          iframeMarkers: ['a'],
          consentStorage: 'sessionStorage',
        });
        expect(await revision()).toBe(r0 + 1);
        await ctx.hosting({ method: 'PUT', url: `${base(client.id)}/${domain.id}`, payload: { country: 'AT' } });
        expect(await revision()).toBe(r0 + 1);
        await ctx.hosting({ method: 'PUT', url: `${base(client.id)}/${domain.id}`, payload: { country: null } });
        expect(await revision()).toBe(r0 + 2);
        const scheme = await ctx.database.db.selectFrom('domains').select('scheme').where('id', '=', domain.id).executeTakeFirstOrThrow();
        expect(scheme.scheme).toBe('http');
      });

      it('counts every revision bump of 100 concurrent domain and theme PUTs', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        const url = `${base(client.id)}/${domain.id}`;
        const themes = await ctx.hosting({ method: 'GET', url: `${url}/theme` });
        const themeId = themes.json<{ id: string }[]>()[0]!.id;
        const revision = async () =>
          (await ctx.database.db.selectFrom('domains').select('config_revision').where('id', '=', domain.id).executeTakeFirstOrThrow())
            .config_revision;
        const before = await revision();
        // Each PUT sets a value no other PUT sets, so each is a real change that must raise the revision once.
        const responses = await Promise.all(
          Array.from({ length: 50 }, (_, i) => [
            ctx.hosting({ method: 'PUT', url, payload: { consentCookieLifetime: 1000 + i } }),
            ctx.hosting({ method: 'PUT', url: `${url}/theme/${themeId}`, payload: { name: `theme ${i}` } }),
          ]).flat(),
        );
        expect(responses.map((r) => r.statusCode)).toEqual(Array(100).fill(200));
        expect(await revision()).toBe(before + 100);
      });

      it('rejects invalid fields and changes nothing', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        const res = await ctx.hosting({
          method: 'PUT',
          url: `${base(client.id)}/${domain.id}`,
          payload: { consentStorage: 'cookie', iframeBlockMode: 'nope', name: '%%%' },
        });
        expect(res.statusCode).toBe(400);
        const read = (await ctx.hosting({ method: 'GET', url: `${base(client.id)}/${domain.id}` })).json();
        expect(read.consentStorage).toBe('localStorage');
        expect(read.name).toBe(domain.name);
      });

      it('takes consentSharingDomains as host names only: no scheme, port or path', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        const url = `${base(client.id)}/${domain.id}`;
        for (const bad of ['https://shop.example', 'shop.example:8443', 'shop.example/de', 'shop..example', '-shop.example']) {
          const res = await ctx.hosting({ method: 'PUT', url, payload: { consentSharingDomains: [bad] } });
          expect(res.statusCode, bad).toBe(400);
        }
        const ok = await ctx.hosting({ method: 'PUT', url, payload: { consentSharingDomains: ['shop.example', '.shop-de.example', '127.0.0.1'] } });
        expect(ok.statusCode).toBe(200);
        expect(ok.json().consentSharingDomains).toEqual(['shop.example', '.shop-de.example', '127.0.0.1']);
      });

      it('refuses public suffixes and single labels in consentSharingDomains, on create and on update', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        const url = `${base(client.id)}/${domain.id}`;
        for (const suffix of ['com', '.com', 'co.uk', 'github.io', 'blogspot.com', 'localhost', 'CO.UK']) {
          const res = await ctx.hosting({ method: 'PUT', url, payload: { consentSharingDomains: ['shop.example', suffix] } });
          expect(res.statusCode, suffix).toBe(400);
          expect(res.json().error).toMatchObject({
            code: 'VALIDATION_FAILED',
            details: [{ field: 'body.consentSharingDomains.1', message: expect.stringContaining('public suffix') }],
          });
          const created = await ctx.hosting({
            method: 'POST',
            url: base(client.id),
            payload: { name: 'another.example', consentSharingDomains: [suffix] },
          });
          expect(created.statusCode, suffix).toBe(400);
        }
        expect((await ctx.hosting({ method: 'GET', url })).json().consentSharingDomains).toEqual([]);
        const ok = await ctx.hosting({
          method: 'PUT',
          url,
          payload: { consentSharingDomains: ['shop.co.uk', 'me.github.io', 'www.shop.example'] },
        });
        expect(ok.statusCode).toBe(200);
      });

      it('answers 400 DOMAIN_NAME_INVALID for a path longer than the column once percent-encoded', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        // 90 × "é" is 90 characters given, 540 once percent-encoded (%C3%A9).
        const long = `https://long.example/${'é'.repeat(90)}`;
        expect(long.length).toBeLessThanOrEqual(500);
        for (const res of [
          await ctx.hosting({ method: 'POST', url: base(client.id), payload: { name: long } }),
          await ctx.hosting({ method: 'PUT', url: `${base(client.id)}/${domain.id}`, payload: { name: long } }),
        ]) {
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toMatchObject({ code: 'DOMAIN_NAME_INVALID', details: [{ field: 'body.name' }] });
        }
        // The boundary: a path of exactly 500 characters once encoded is stored whole, 501 is refused.
        const path = (plain: number) => `/${'é'.repeat(80)}${'a'.repeat(plain)}`;
        const over = await ctx.hosting({ method: 'POST', url: base(client.id), payload: { name: `long.example${path(20)}` } });
        expect(over.json().error?.code).toBe('DOMAIN_NAME_INVALID');
        const created = await ctx.hosting({ method: 'POST', url: base(client.id), payload: { name: `long.example${path(19)}` } });
        expect(created.statusCode).toBe(201);
        expect(created.json().path).toHaveLength(500);
      });

      it('answers 400 DOMAIN_NAME_INVALID for a bad name', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        const res = await ctx.hosting({ method: 'PUT', url: `${base(client.id)}/${domain.id}`, payload: { name: 'bad host' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('DOMAIN_NAME_INVALID');
      });
    });

    describe('DELETE', () => {
      it('deletes a domain, then answers 404', async () => {
        const client = await createClient(ctx);
        const domain = await createDomain(ctx, client.id);
        expect((await ctx.hosting({ method: 'DELETE', url: `${base(client.id)}/${domain.id}` })).statusCode).toBe(204);
        expect((await ctx.hosting({ method: 'GET', url: `${base(client.id)}/${domain.id}` })).statusCode).toBe(404);
        expect((await ctx.hosting({ method: 'DELETE', url: `${base(client.id)}/${domain.id}` })).statusCode).toBe(404);
      });
    });

    describe('tenant isolation', () => {
      it('never shows or changes client B\'s domain under client A', async () => {
        const a = await createClient(ctx);
        const b = await createClient(ctx);
        const bDomain = await createDomain(ctx, b.id, { name: 'b-only.example' });
        const url = `${base(a.id)}/${bDomain.id}`;
        for (const res of [
          await ctx.hosting({ method: 'GET', url }),
          await ctx.hosting({ method: 'PUT', url, payload: { country: 'FR' } }),
          await ctx.hosting({ method: 'DELETE', url }),
        ]) {
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('DOMAIN_NOT_FOUND');
          expect(res.body).not.toContain('b-only');
        }
        const still = (await ctx.hosting({ method: 'GET', url: `${base(b.id)}/${bDomain.id}` })).json();
        expect(still.country).toBeNull();
        expect((await ctx.hosting({ method: 'GET', url: base(a.id) })).json()).toEqual([]);
      });
    });
  });
}

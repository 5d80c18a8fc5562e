import { describe, expect, it } from 'vitest';
import { DIALECTS, useApp } from '../../../test/helper.js';
import { presetCatalogue } from '../onboarding/preset-catalogue.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: GET /hosting/api/onboarding/presets`, () => {
    const ctx = useApp(dialect);
    const browse = (query = '') => ctx.hosting({ method: 'GET', url: `/hosting/api/onboarding/presets${query}` });
    const all = presetCatalogue().presets;

    it('pages through the whole catalogue in catalogue order (default 50 per page)', async () => {
      const first = await browse();
      expect(first.statusCode).toBe(200);
      const page = first.json();
      expect(page).toMatchObject({ total: all.length, offset: 0, limit: 50 });
      expect(page.items.map((p: { id: number }) => p.id)).toEqual(all.slice(0, 50).map((p) => p.id));
      const ids: number[] = [];
      for (let offset = 0; offset < all.length; offset += 40) {
        ids.push(...(await browse(`?offset=${offset}&limit=40`)).json().items.map((p: { id: number }) => p.id));
      }
      expect(ids).toEqual(all.map((p) => p.id));
    });

    it('describes each preset with its texts per locale and its assets', async () => {
      const ga = all.find((p) => p.name === 'Google Analytics 4')!;
      const item = (await browse('?search=google%20analytics%204')).json().items.find((p: { id: number }) => p.id === ga.id);
      expect(item).toEqual({
        id: ga.id,
        name: ga.name,
        purpose: ga.purpose,
        vendor: ga.vendor,
        privacyPolicyUrl: ga.privacyPolicyUrl,
        translations: {
          en_US: { name: ga.texts.en.name, description: ga.texts.en.description },
          de_DE: { name: ga.texts.de.name, description: ga.texts.de.description },
        },
        assets: ga.assets.map((a) => ({ name: a.name, storageType: a.storageType, dynamic: a.dynamic })),
      });
    });

    it('searches case-insensitively for every word in name, vendor, texts and cookie names', async () => {
      const byCookie = (await browse('?search=_GA')).json();
      expect(byCookie.items.some((p: { name: string }) => p.name === 'Google Analytics 4')).toBe(true);
      const both = (await browse('?search=GOOGLE%20analytics')).json();
      expect(both.total).toBeGreaterThan(0);
      for (const p of both.items) expect(JSON.stringify(p).toLowerCase()).toMatch(/google/);
      expect((await browse('?search=no-such-service-anywhere')).json()).toEqual({ total: 0, offset: 0, limit: 50, items: [] });
    });

    it('filters by purpose id', async () => {
      const purpose = all[0]!.purpose;
      const page = (await browse(`?purpose=${purpose}&limit=200`)).json();
      expect(page.total).toBe(all.filter((p) => p.purpose === purpose).length);
      expect(page.items.every((p: { purpose: string }) => p.purpose === purpose)).toBe(true);
    });

    it('rejects out-of-range paging and unknown purposes, and needs the agency key', async () => {
      for (const q of ['?limit=0', '?limit=201', '?offset=-1', '?purpose=nope']) {
        const res = await browse(q);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
      }
      const anonymous = await ctx.app.inject({ method: 'GET', url: '/hosting/api/onboarding/presets' });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}

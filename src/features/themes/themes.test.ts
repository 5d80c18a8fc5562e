import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, domainRevisions, useApp } from '../../../test/helper.js';
import { DEFAULT_COLORS, THEME_DEFAULTS } from './themes.schemas.js';

/** WCAG 2.2 relative luminance and contrast ratio. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');

describe('default palette', () => {
  const c = DEFAULT_COLORS;
  it.each([
    ['window text', c.windowForegroundColor, c.windowBackgroundColor, 4.5],
    ['window link', c.windowLinkColor, c.windowBackgroundColor, 4.5],
    ['window border', c.windowBorderColor, c.windowBackgroundColor, 3],
    ['accept button', c.primaryButtonForegroundColor, c.primaryButtonBackgroundColor, 4.5],
    ['decline button', c.declineButtonForegroundColor, c.declineButtonBackgroundColor, 4.5],
    ['secondary button', c.buttonForegroundColor, c.buttonBackgroundColor, 4.5],
    ['secondary button border', c.buttonBorderColor, c.windowBackgroundColor, 3],
    ['accept button on window', c.primaryButtonBackgroundColor, c.windowBackgroundColor, 3],
    ['iframe blocker text', c.iframeBlockerForegroundColor, c.iframeBlockerBackgroundColor, 4.5],
    ['iframe blocker button', c.iframeBlockerButtonForegroundColor, c.iframeBlockerButtonBackgroundColor, 4.5],
  ])('%s passes WCAG 2.2 AA', (_name, fg, bg, min) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(min);
  });

  it('gives accept and decline equal visual weight', () => {
    expect(c.declineButtonBackgroundColor).toBe(c.primaryButtonBackgroundColor);
    expect(c.declineButtonForegroundColor).toBe(c.primaryButtonForegroundColor);
    expect(c.declineButtonBorderColor).toBe(c.primaryButtonBorderColor);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: themes`, () => {
    const ctx = useApp(dialect);
    const setup = async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      return { client, domain, url: `/hosting/api/client/${client.id}/domain/${domain.id}/theme` };
    };
    const list = async (url: string) => (await ctx.hosting({ method: 'GET', url })).json() as { id: string; default: boolean; name: string }[];

    it('gives a new domain exactly one default theme with every default', async () => {
      const { url } = await setup();
      const themes = await list(url);
      expect(themes).toHaveLength(1);
      expect(themes[0]).toEqual({ id: expect.stringMatching(/^[0-9a-f]{7}$/), name: 'Standard', default: true, ...THEME_DEFAULTS });
    });

    it('creates a theme with given fields; colours are optional and stored lower case', async () => {
      const { url } = await setup();
      const res = await ctx.hosting({
        method: 'POST',
        url,
        payload: {
          name: 'Dark',
          widgetPosition: 'bottomright',
          widgetButtons: ['cpanel', 'decline', 'accept'],
          widgetSwitchType: 'checkbox',
          settingsIconTarget: 'main',
          windowBackgroundColor: '#1A1A1A',
          customCss: '.ccm-root { font-size: 15px }',
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        name: 'Dark',
        default: false,
        widgetPosition: 'bottomright',
        widgetButtons: ['cpanel', 'decline', 'accept'],
        widgetSwitchType: 'checkbox',
        settingsIconTarget: 'main',
        windowBackgroundColor: '#1a1a1a',
        windowForegroundColor: DEFAULT_COLORS.windowForegroundColor,
        customCss: '.ccm-root { font-size: 15px }',
      });
      const one = await ctx.hosting({ method: 'GET', url: `${url}/${res.json().id}` });
      expect(one.json()).toEqual(res.json());
    });

    it.each([
      ['name', ''],
      ['windowBackgroundColor', 'red'],
      ['windowBackgroundColor', '#fff'],
      ['primaryButtonBackgroundColor', '#12345g'],
      ['widgetButtons', ['accept', 'accept']],
      ['widgetButtons', ['accept', 'maybe']],
      ['widgetPosition', 'left'],
      ['settingsIconTarget', 'details'],
      ['widgetSwitchType', 'toggle'],
      ['widgetBlocking', 'true'],
      ['customCss', 'x'.repeat(50_001)],
      ['default', 1],
    ])('rejects %s = %j with a detail naming the field', async (field, value) => {
      const { url } = await setup();
      const res = await ctx.hosting({ method: 'POST', url, payload: { name: 'T', [field]: value } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.some((d: { field: string }) => d.field.startsWith(`body.${field}`))).toBe(true);
      expect(await list(url)).toHaveLength(1);
    });

    describe('images', () => {
      it('accepts PNG and JPEG as base64 or data URL, and null removes them', async () => {
        const { url } = await setup();
        const res = await ctx.hosting({
          method: 'POST',
          url,
          payload: { name: 'Logo', logoEnabled: true, logoImage: PNG_1PX, settingsIconImage: `data:image/jpeg;base64,${JPEG_HEAD}` },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json().logoImage).toBe(PNG_1PX);
        expect(res.json().settingsIconImage).toBe(JPEG_HEAD);
        const cleared = await ctx.hosting({ method: 'PUT', url: `${url}/${res.json().id}`, payload: { logoImage: null } });
        expect(cleared.json().logoImage).toBeNull();
        expect(cleared.json().settingsIconImage).toBe(JPEG_HEAD);
      });

      it('rejects what is not a PNG or JPEG, invalid base64 and oversized images', async () => {
        const { url } = await setup();
        const gif = Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64');
        const bigPng = Buffer.concat([Buffer.from(PNG_1PX, 'base64'), Buffer.alloc(64 * 1024)]).toString('base64');
        for (const [field, value] of [
          ['logoImage', gif],
          ['logoImage', 'not base64 at all!'],
          ['logoImage', Buffer.from('<svg/>').toString('base64')],
          ['settingsIconImage', bigPng],
        ] as const) {
          const res = await ctx.hosting({ method: 'POST', url, payload: { name: 'Bad', [field]: value } });
          expect(res.statusCode, field).toBe(400);
          expect(res.json().error.code).toMatch(/INVALID_IMAGE|VALIDATION_FAILED/);
          expect(res.json().error.details[0].field).toBe(`body.${field}`);
        }
        const tooLarge = Buffer.concat([Buffer.from(PNG_1PX, 'base64'), Buffer.alloc(512 * 1024)]).toString('base64');
        const res = await ctx.hosting({ method: 'POST', url, payload: { name: 'Huge', logoImage: tooLarge } });
        expect(res.statusCode).toBe(400);
        expect(await list(url)).toHaveLength(1);
      });
    });

    describe('the default theme', () => {
      it('marking a theme default unmarks the others, on create and on update', async () => {
        const { url } = await setup();
        const [standard] = await list(url);
        const b = (await ctx.hosting({ method: 'POST', url, payload: { name: 'B', default: true } })).json();
        let themes = await list(url);
        expect(themes.filter((t) => t.default).map((t) => t.id)).toEqual([b.id]);
        await ctx.hosting({ method: 'PUT', url: `${url}/${standard!.id}`, payload: { default: true } });
        themes = await list(url);
        expect(themes.filter((t) => t.default).map((t) => t.id)).toEqual([standard!.id]);
      });

      it('cannot be unmarked directly', async () => {
        const { url } = await setup();
        const [standard] = await list(url);
        const res = await ctx.hosting({ method: 'PUT', url: `${url}/${standard!.id}`, payload: { default: false } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('DEFAULT_THEME_REQUIRED');
        expect((await list(url))[0]!.default).toBe(true);
      });

      it('deleting the default promotes another; the last theme cannot be deleted', async () => {
        const { url } = await setup();
        const [standard] = await list(url);
        const b = (await ctx.hosting({ method: 'POST', url, payload: { name: 'B' } })).json();
        expect((await ctx.hosting({ method: 'DELETE', url: `${url}/${standard!.id}` })).statusCode).toBe(204);
        const themes = await list(url);
        expect(themes).toEqual([expect.objectContaining({ id: b.id, default: true })]);
        const last = await ctx.hosting({ method: 'DELETE', url: `${url}/${b.id}` });
        expect(last.statusCode).toBe(400);
        expect(last.json().error.code).toBe('LAST_THEME');
        expect(await list(url)).toHaveLength(1);
      });

      it('stays unique under concurrent changes', async () => {
        const { url } = await setup();
        const created = await Promise.all(
          ['A', 'B', 'C', 'D'].map((name) => ctx.hosting({ method: 'POST', url, payload: { name, default: true } })),
        );
        expect(created.every((r) => r.statusCode === 201)).toBe(true);
        const themes = await list(url);
        await Promise.all(themes.map((t) => ctx.hosting({ method: 'PUT', url: `${url}/${t.id}`, payload: { default: true } })));
        expect((await list(url)).filter((t) => t.default)).toHaveLength(1);
      });
    });

    it('PUT merges and bumps the configuration revision only on a real change', async () => {
      const { url, domain } = await setup();
      const [standard] = await list(url);
      const r0 = await domainRevisions(ctx, domain.id);
      const res = await ctx.hosting({ method: 'PUT', url: `${url}/${standard!.id}`, payload: { widgetBlocking: true } });
      expect(res.json()).toMatchObject({ name: 'Standard', widgetBlocking: true, default: true });
      const r1 = await domainRevisions(ctx, domain.id);
      expect(r1.config_revision).toBe(r0.config_revision + 1);
      await ctx.hosting({ method: 'PUT', url: `${url}/${standard!.id}`, payload: { widgetBlocking: true, name: 'Standard' } });
      expect(await domainRevisions(ctx, domain.id)).toEqual(r1);
      expect(r1.legal_revision).toBe(r0.legal_revision);
    });

    it('answers 404 THEME_NOT_FOUND and keeps tenants apart', async () => {
      const a = await setup();
      const b = await setup();
      const [bTheme] = await list(b.url);
      const missing = await ctx.hosting({ method: 'GET', url: `${a.url}/0000000` });
      expect(missing.json().error.code).toBe('THEME_NOT_FOUND');
      const crossedDomain = `/hosting/api/client/${a.client.id}/domain/${b.domain.id}/theme`;
      const [aTheme] = await list(a.url);
      for (const res of [
        await ctx.hosting({ method: 'GET', url: crossedDomain }),
        await ctx.hosting({ method: 'GET', url: `${crossedDomain}/${bTheme!.id}` }),
        await ctx.hosting({ method: 'GET', url: `${a.url}/${bTheme!.id}` }),
        await ctx.hosting({ method: 'PUT', url: `${a.url}/${bTheme!.id}`, payload: { name: 'hijack' } }),
        await ctx.hosting({ method: 'DELETE', url: `${a.url}/${bTheme!.id}` }),
        await ctx.hosting({ method: 'POST', url: crossedDomain, payload: { name: 'x' } }),
      ]) {
        expect(res.statusCode).toBe(404);
      }
      expect(await list(b.url)).toEqual([expect.objectContaining({ id: bTheme!.id, name: 'Standard', default: true })]);
      expect(await list(a.url)).toEqual([expect.objectContaining({ id: aTheme!.id })]);
    });
  });
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmarkDomain } from '../../../bench/widget-domain.js';
import { HOSTING_KEY, useApp } from '../../../test/helper.js';
import {
  WIDGET_BUDGET_BROTLI, WIDGET_OPT_EXTRA_BROTLI, WIDGET_STRICT_EXTRA_BROTLI, WIDGET_SX_BUDGET_BROTLI, buildWidget, cacheDir, cached, sizes, sourceHash,
} from '../../../widget/build.js';

describe('widget size budgets', () => {
  const ctx = useApp('sqlite', { publicUrl: 'https://consent.agency.example' });

  it(`keeps the widget code (JS + CSS) within ${WIDGET_BUDGET_BROTLI} B brotli`, async () => {
    const code = await buildWidget();
    expect(sizes(code.replace('__PLACET_CFG__', '{}')).brotli).toBeLessThanOrEqual(WIDGET_BUDGET_BROTLI);
  });

  it(`keeps the cross-domain variant within ${WIDGET_SX_BUDGET_BROTLI} B brotli, and the base widget without its hand-over`, async () => {
    const [base, variant] = await Promise.all([buildWidget(false), buildWidget(true)]);
    expect(sizes(variant.replace('__PLACET_CFG__', '{}')).brotli).toBeLessThanOrEqual(WIDGET_SX_BUDGET_BROTLI);
    expect(variant).toContain('/redeem');
    expect(base).not.toMatch(/handover|ccm_consent=\{/);
  });

  it(`keeps the strict-blocking variants within ${WIDGET_STRICT_EXTRA_BROTLI} B more, and the others without strict blocking's cookie`, async () => {
    const [base, strict, sxStrict] = await Promise.all([buildWidget(false), buildWidget(false, false, true), buildWidget(true, false, true)]);
    expect(sizes(strict.replace('__PLACET_CFG__', '{}')).brotli).toBeLessThanOrEqual(WIDGET_BUDGET_BROTLI + WIDGET_STRICT_EXTRA_BROTLI);
    expect(sizes(sxStrict.replace('__PLACET_CFG__', '{}')).brotli).toBeLessThanOrEqual(WIDGET_SX_BUDGET_BROTLI + WIDGET_STRICT_EXTRA_BROTLI);
    expect(strict).toContain('ccm_consent_strict');
    expect(base).not.toContain('_strict');
  });

  it(`keeps the variants with evalInlineScripts, deleteUnknownCookies or appendConsentSwitchToIframes within ${WIDGET_OPT_EXTRA_BROTLI} B more, and the others without their code`, async () => {
    const [base, opt, sxStrictOpt] = await Promise.all([buildWidget(), buildWidget(false, false, false, true), buildWidget(true, false, true, true)]);
    expect(sizes(opt.replace('__PLACET_CFG__', '{}')).brotli).toBeLessThanOrEqual(WIDGET_BUDGET_BROTLI + WIDGET_OPT_EXTRA_BROTLI);
    expect(sizes(sxStrictOpt.replace('__PLACET_CFG__', '{}')).brotli).toBeLessThanOrEqual(WIDGET_SX_BUDGET_BROTLI + WIDGET_STRICT_EXTRA_BROTLI + WIDGET_OPT_EXTRA_BROTLI);
    for (const mark of ['ccm_reloaded', 'eval)(', 'ccm-switch']) {
      expect(opt).toContain(mark);
      expect(base).not.toContain(mark);
    }
  });

  it('serves a 4-embedding, 2-locale domain within 12 KB brotli in total', async () => {
    const { snippetSrc } = await benchmarkDomain(ctx.app, HOSTING_KEY, 'bench.example', 'https://consent.agency.example');
    const res = await ctx.app.inject({
      method: 'GET',
      url: snippetSrc.replace('https://consent.agency.example', ''),
      headers: { referer: 'http://bench.example/' },
    });
    expect(res.body).toContain('JSON.parse(');
    const total = sizes(res.rawPayload);
    expect(total.brotli).toBeLessThanOrEqual(12 * 1024);
  });

  it('keeps each bundle on disk under the hash of its sources: built once, then read back', async () => {
    const name = `probe-${randomBytes(4).toString('hex')}`;
    let builds = 0;
    const make = async () => `bundle ${++builds}`;
    try {
      expect(await cached(name, make)).toBe('bundle 1');
      expect(await cached(name, make)).toBe('bundle 1');
      expect(builds).toBe(1);
      expect(fs.readdirSync(cacheDir)).toContain(`${name}-${sourceHash()}.js`);
      // The base widget is served from its file in the cache.
      const served = await buildWidget();
      expect(fs.readFileSync(path.join(cacheDir, `widget-0000-${sourceHash()}.js`), 'utf8')).toBe(served);
    } finally {
      fs.rmSync(path.join(cacheDir, `${name}-${sourceHash()}.js`), { force: true });
    }
  });
});

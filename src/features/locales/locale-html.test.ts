import { describe, expect, it } from 'vitest';
import { DIALECTS, createClient, createDomain, domainRevisions, useApp } from '../../../test/helper.js';
import { up as sanitiseStoredHtml } from '../../db/migrations/2026_11_25_0040_sanitise_locale_html.js';
import { fillLegalHtml, sanitizeLegalHtml } from './locale-html.js';

describe('sanitizeLegalHtml', () => {
  it.each([
    ['<p onclick="x()">a</p><img src=x onerror=alert(1)>', '<p>a</p>'],
    ['<a href="javascript:alert(1)">j</a><a href="data:text/html,x">d</a><a href="//evil.example">p</a>', '<a>j</a><a>d</a><a>p</a>'],
    ['<a href="https://a.example" target="_top">t</a>', '<a href="https://a.example" target="_blank" rel="noopener noreferrer">t</a>'],
    ['<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>after', 'after'],
    ['<svg><style><img src=x onerror=alert(1)></style></svg>ok', 'ok'],
    ['<p style="color:red">s</p><form action="/x"><b>f</b></form>', '<p>s</p><b>f</b>'],
    ['a < b & c', 'a &lt; b &amp; c'],
  ])('cleans %s', (input, output) => {
    expect(sanitizeLegalHtml(input)).toBe(output);
  });

  it('changes nothing the second time, so a value read back and written again is no change', () => {
    const html = '<h2 title="x">T</h2><p>a &amp; b <a href="mailto:a@b.example">m</a> <a href="x" target="_blank">n</a></p>';
    const once = sanitizeLegalHtml(html);
    expect(sanitizeLegalHtml(once)).toBe(once);
  });

  it('sanitises again only what placeholders filled in', () => {
    const fill = (s: string) => s.replace('{URL}', 'javascript:alert(1)').replace('{TAG}', '<img src=x onerror=alert(1)>');
    expect(fillLegalHtml('<a href="{URL}">a</a>{TAG}', fill)).toBe('<a>a</a>');
    const untouched = '<p>no placeholder</p>';
    expect(fillLegalHtml(untouched, fill)).toBe(untouched);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: locale HTML`, () => {
    const ctx = useApp(dialect);
    const setup = async () => {
      const client = await createClient(ctx);
      const domain = await createDomain(ctx, client.id);
      return { domain, url: `/hosting/api/client/${client.id}/domain/${domain.id}/locale` };
    };

    it('stores the sanitised HTML on create and update and shows it on read; writing it back is no change', async () => {
      const { domain, url } = await setup();
      const created = await ctx.hosting({
        method: 'POST',
        url,
        payload: { name: 'en', imprintHtmlCode: '<p>Shop</p><script>steal()</script>', widgetTitle: '<b>not HTML</b>' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().imprintHtmlCode).toBe('<p>Shop</p>');
      // Plain texts are not HTML (the widget escapes them) and stay as given.
      expect(created.json().widgetTitle).toBe('<b>not HTML</b>');
      const updated = await ctx.hosting({
        method: 'PUT',
        url: `${url}/en`,
        payload: { privacyPolicyHtmlCode: '<details open ontoggle="x()"><summary>P</summary></details>', accessibilityHtmlCode: '<img src=x onerror=y()>' },
      });
      expect(updated.json()).toMatchObject({ privacyPolicyHtmlCode: 'P', accessibilityHtmlCode: '' });
      expect((await ctx.hosting({ method: 'GET', url: `${url}/en` })).json()).toEqual(updated.json());
      const before = await domainRevisions(ctx, domain.id);
      await ctx.hosting({ method: 'PUT', url: `${url}/en`, payload: { imprintHtmlCode: updated.json().imprintHtmlCode } });
      expect(await domainRevisions(ctx, domain.id)).toEqual(before);
    });

    it('migration 0040 sanitises HTML stored before, and raises the configuration revision of those domains only', async () => {
      const dirty = await setup();
      const clean = await setup();
      await ctx.hosting({ method: 'POST', url: dirty.url, payload: { name: 'en' } });
      await ctx.hosting({ method: 'POST', url: clean.url, payload: { name: 'en', imprintHtmlCode: '<p>fine</p>' } });
      // Written as an older release stored it, past today's service.
      const texts = { texts: { imprintHtmlCode: '<p>Shop</p><img src=x onerror=alert(1)>', privacyPolicyHtmlCode: '<script>x()</script>', widgetTitle: '<i>t</i>' }, purposeNames: {}, purposeDescriptions: {} };
      await ctx.database.db.updateTable('locales').set({ texts: JSON.stringify(texts) }).where('domain_id', '=', dirty.domain.id).execute();
      const [dirtyBefore, cleanBefore] = [await domainRevisions(ctx, dirty.domain.id), await domainRevisions(ctx, clean.domain.id)];
      await sanitiseStoredHtml(ctx.database.db);
      const read = (await ctx.hosting({ method: 'GET', url: `${dirty.url}/en` })).json();
      expect(read).toMatchObject({ imprintHtmlCode: '<p>Shop</p>', privacyPolicyHtmlCode: '', widgetTitle: '<i>t</i>' });
      expect((await domainRevisions(ctx, dirty.domain.id)).config_revision).toBe(dirtyBefore.config_revision + 1);
      expect(await domainRevisions(ctx, clean.domain.id)).toEqual(cleanBefore);
      expect((await ctx.hosting({ method: 'GET', url: `${clean.url}/en` })).json().imprintHtmlCode).toBe('<p>fine</p>');
    });
  });
}

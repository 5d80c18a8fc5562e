import { describe, expect, it } from 'vitest';
import { decodeEntities, extractAnchors, extractResources, htmlToText } from './html.js';
import { parseSetCookie } from './set-cookie.js';

const page = new URL('https://www.example.com/shop/index.html');

describe('HTML readers', () => {
  it('reads links with absolute URLs and their visible text', () => {
    const html = `<a href="/impressum" class=x>Im<b>pressum</b></a>
      <A HREF='../agb'>AGB &amp; Co</A><a href=kontakt.html aria-label="Contact"><img src=x></a>
      <!-- <a href="/hidden">hidden</a> --><a href="https://[bad">broken</a><a>no href</a>`;
    expect(extractAnchors(html, page)).toEqual([
      { href: 'https://www.example.com/impressum', text: 'Im pressum' },
      { href: 'https://www.example.com/agb', text: 'AGB & Co' },
      { href: 'https://www.example.com/shop/kontakt.html', text: 'Contact' },
    ]);
  });

  it('resolves links against <base href>', () => {
    expect(extractAnchors('<base href="https://cdn.example.com/de/"><a href="x">X</a>', page)[0]!.href).toBe('https://cdn.example.com/de/x');
  });

  it('finds scripts, iframes and executable inline code', () => {
    const html = `<script src="https://www.googletagmanager.com/gtag/js?id=G-1" async></script>
      <script>var _paq = window._paq || []; _paq.push(['trackPageView']);</script>
      <script type="application/ld+json">{"@type":"Organization"}</script>
      <iframe src="https://www.youtube.com/embed/abc" width=560></iframe><iframe data-src="//player.vimeo.com/video/1"></iframe>
      <OBJECT data="https://www.youtube.com/embed/obj?autoplay=0" width='860px'></OBJECT><embed src="https://www.youtube.com/embed/emb">
      <object data="/files/menu.pdf" type="application/pdf"></object><object type="image/svg+xml"></object>`;
    expect(extractResources(html, page)).toEqual({
      scripts: ['https://www.googletagmanager.com/gtag/js?id=G-1'],
      iframes: [
        'https://www.youtube.com/embed/abc',
        'https://player.vimeo.com/video/1',
        'https://www.youtube.com/embed/obj?autoplay=0',
        'https://www.youtube.com/embed/emb',
        'https://www.example.com/files/menu.pdf',
      ],
      inlineScripts: ["var _paq = window._paq || []; _paq.push(['trackPageView']);"],
    });
  });

  it('turns HTML into lines of visible text', () => {
    const html = '<head><title>T</title><style>p{}</style></head><p>Beispiel GmbH<br>Musterstra&szlig;e&nbsp;12</p><script>x()</script><div>10115 <span>Berlin</span></div>';
    expect(htmlToText(html)).toBe('Beispiel GmbH\nMusterstraße 12\n10115 Berlin');
  });

  it('decodes named and numeric entities', () => {
    expect(decodeEntities('&uuml;&#252;&#xFC;&unknown;')).toBe('üüü&unknown;');
  });
});

describe('parseSetCookie', () => {
  const url = new URL('https://shop.example.com/account/login');
  it.each([
    ['sid=1; Path=/; HttpOnly', { name: 'sid', domain: 'shop.example.com', path: '/' }],
    ['_ga=GA1.1; Domain=.example.com; Max-Age=63072000', { name: '_ga', domain: '.example.com', path: '/account' }],
    ['pref=x; domain=Example.com; path=/shop', { name: 'pref', domain: '.example.com', path: '/shop' }],
    ['__Host-id=1; Secure; Path=/', { name: '__Host-id', domain: 'shop.example.com', path: '/' }],
  ])('names %s the way the browser stores it', (header, expected) => {
    expect(parseSetCookie(header, url)).toEqual(expected);
  });

  it('ignores a header without a name', () => {
    expect(parseSetCookie('=value', url)).toBeUndefined();
    expect(parseSetCookie('novalue', url)).toBeUndefined();
  });
});

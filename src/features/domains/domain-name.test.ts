import { describe, expect, it } from 'vitest';
import { parseDomainName } from './domain-name.js';

describe('parseDomainName', () => {
  it.each([
    ['www.site.tld', { name: 'www.site.tld', path: '/', scheme: 'https' }],
    ['WWW.Site.TLD', { name: 'www.site.tld', path: '/', scheme: 'https' }],
    ['https://www.site.tld/shop/', { name: 'www.site.tld', path: '/shop/', scheme: 'https' }],
    ['http://www.site.tld', { name: 'www.site.tld', path: '/', scheme: 'http' }],
    ['www.site.tld/website2/', { name: 'www.site.tld', path: '/website2/', scheme: 'https' }],
    ['site.tld:8443', { name: 'site.tld:8443', path: '/', scheme: 'https' }],
    ['https://site.tld:443/', { name: 'site.tld', path: '/', scheme: 'https' }],
    ['http://127.0.0.1:8080/', { name: '127.0.0.1:8080', path: '/', scheme: 'http' }],
    ['localhost', { name: 'localhost', path: '/', scheme: 'https' }],
    ['https://site.tld/?utm=1#top', { name: 'site.tld', path: '/', scheme: 'https' }],
    ['bücher.example', { name: 'xn--bcher-kva.example', path: '/', scheme: 'https' }],
    ['  site.tld  ', { name: 'site.tld', path: '/', scheme: 'https' }],
  ])('accepts %s', (input, expected) => {
    expect(parseDomainName(input)).toEqual(expected);
  });

  it.each([
    '',
    'not a domain',
    'ftp://site.tld',
    'javascript:alert(1)',
    'https://user:pw@site.tld',
    '-bad-.tld',
    'site..tld',
    'site.tld:99999',
    'under_score.tld',
    '[::1]',
    '999.1.1.1',
    'a'.repeat(64) + '.tld',
    'https://',
  ])('refuses %j', (input) => {
    expect(parseDomainName(input)).toBeUndefined();
  });
});

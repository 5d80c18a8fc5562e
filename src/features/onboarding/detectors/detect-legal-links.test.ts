import { describe, expect, it } from 'vitest';
import { detectLegalLinks, legalKindOf } from './detect-legal-links.js';

const site = new URL('https://www.example.com/');
const link = (href: string, text: string) => ({ href: new URL(href, site).href, text });

describe('detectLegalLinks', () => {
  it.each([
    ['English', 'Imprint', 'Privacy Policy'],
    ['English (legal notice)', 'Legal notice', 'Privacy notice'],
    ['German', 'Impressum', 'Datenschutzerklärung'],
    ['French', 'Mentions légales', 'Politique de confidentialité'],
    ['Spanish', 'Aviso legal', 'Política de privacidad'],
    ['Italian', 'Note legali', 'Informativa sulla privacy'],
    ['Dutch', 'Colofon', 'Privacyverklaring'],
  ])('finds %s link texts', (_lang, imprint, privacy) => {
    const anchors = [link('/', 'Home'), link('/a', imprint), link('/b', privacy), link('/c', 'Kontakt')];
    expect(detectLegalLinks(anchors, site)).toEqual({ imprintUrl: `${site.origin}/a`, privacyPolicyUrl: `${site.origin}/b` });
  });

  it.each([
    ['/impressum', '/datenschutz'],
    ['/legal-notice', '/privacy-policy'],
    ['/mentions-legales', '/politique-de-confidentialite'],
    ['/aviso-legal', '/politica-de-privacidad'],
    ['/note-legali', '/riservatezza'],
    ['/colofon', '/privacybeleid'],
  ])('finds links by URL (%s, %s) when the text says nothing', (imprint, privacy) => {
    const anchors = [link(imprint, '§'), link(privacy, 'ℹ')];
    expect(detectLegalLinks(anchors, site)).toEqual({ imprintUrl: `${site.origin}${imprint}`, privacyPolicyUrl: `${site.origin}${privacy}` });
  });

  it('prefers the link whose text is only the keyword, and links of the site itself', () => {
    const anchors = [
      link('https://other.example/privacy', 'Privacy'),
      link('/blog/privacy-in-2025', 'Our thoughts on privacy and the web in a long headline'),
      link('/privacy', 'Privacy'),
    ];
    expect(detectLegalLinks(anchors, site).privacyPolicyUrl).toBe(`${site.origin}/privacy`);
  });

  it('ignores consent settings links, mailto and javascript links', () => {
    const anchors = [link('/#', 'Privacy settings'), { href: 'mailto:privacy@example.com', text: 'Privacy' }, { href: 'javascript:void(0)', text: 'Impressum' }];
    expect(detectLegalLinks(anchors, site)).toEqual({ imprintUrl: null, privacyPolicyUrl: null });
  });

  it('classifies single links for the crawl queue', () => {
    expect(legalKindOf(link('/impressum', 'Impressum'))).toBe('imprint');
    expect(legalKindOf(link('/x', 'Datenschutz'))).toBe('privacy');
    expect(legalKindOf(link('/shop', 'Shop'))).toBeUndefined();
  });
});

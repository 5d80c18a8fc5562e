import { describe, expect, it } from 'vitest';
import { EMBEDDING_DEFAULTS, type Embedding } from '../embeddings/embeddings.schemas.js';
import type { AuditObservation } from './audit-crawl.js';
import { AuditRules } from './audit-rules.js';
import { presetSourceKey } from './onboarding.repository.js';

const PAGE = 'https://www.shop.example/contact';
const GA4_URL = 'https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9';

const embedding = (fields: Partial<Embedding> & Pick<Embedding, 'id' | 'name'>): Embedding => ({
  ...EMBEDDING_DEFAULTS, active: true, purpose: 'a717ff5', assets: [], ...fields,
});
const asset = (name: string, storageType: 'cookie' | 'localStorage' = 'cookie') => ({
  id: name, name, storageType, dynamic: name.includes('*'), lifetime: '', description: '', translations: {},
});
const observed = (o: Partial<AuditObservation>): AuditObservation => ({ requests: [], refusedByPolicy: [], cookies: [], localStorage: [], sessionStorage: [], ...o });
const script = (url: string) => ({ url, resourceType: 'script' });

describe('audit rules: what is a violation, and its fix', () => {
  it('offers the preset for a tracker the domain has no embedding for', () => {
    const [v] = new AuditRules([], new Map(), false).violations(PAGE, 'beforeDecision', observed({ requests: [script(GA4_URL)] }));
    expect(v).toMatchObject({ kind: 'request', embedding: null, preset: { id: 1, name: 'Google Analytics 4' } });
    expect(v!.fix).toBe('import preset Google Analytics 4 (POST …/onboarding/presets [{ "id": 1 }]), whose script markers include googletagmanager.com/gtag/js?id=g-');
  });

  it('names the marker to add when the preset\'s embedding exists but does not claim the URL', () => {
    // The embedding onboarding made from preset 1, since edited so that its markers miss the tag.
    const ga = embedding({ id: 'ga00001', name: 'Google Analytics', scriptMarkers: ['google-analytics.com/analytics.js'] });
    const rules = new AuditRules([ga], new Map([[presetSourceKey(1), ga.id]]), false);
    const [v] = rules.violations(PAGE, 'afterDecline', observed({ requests: [script(GA4_URL)] }));
    expect(v).toMatchObject({ state: 'afterDecline', embedding: { id: 'ga00001', name: 'Google Analytics' }, preset: { id: 1 } });
    expect(v!.fix).toBe('add script marker googletagmanager.com/gtag/js?id=g- to embedding Google Analytics');
  });

  it('asks to activate an inactive embedding that claims it', () => {
    const ga = embedding({ id: 'ga00001', name: 'GA', active: false, scriptMarkers: ['googletagmanager.com/gtag/js'], assets: [asset('_ga')] });
    const found = new AuditRules([ga], new Map(), false).violations(
      PAGE, 'beforeDecision', observed({ requests: [script(GA4_URL)], cookies: [{ name: '_ga', domain: '.shop.example', path: '/' }] }),
    );
    expect(found.map((v) => v.fix)).toEqual(['activate embedding GA: inactive embeddings block nothing', 'activate embedding GA: inactive embeddings block nothing']);
  });

  it('points at the markup for an embedding\'s iframe and <script src> the browser fetched anyway', () => {
    const video = embedding({ id: 'yt00001', name: 'YouTube', purpose: '6cd2721', iframeMarkers: ['youtube.com/embed'] });
    const ga = embedding({ id: 'ga00001', name: 'GA', scriptMarkers: ['googletagmanager.com/gtag/js'] });
    const found = new AuditRules([video, ga], new Map(), false).violations(PAGE, 'beforeDecision', observed({
      requests: [
        { url: 'https://www.youtube.com/embed/x', resourceType: 'document' },
        // Loaded inside the leaking frame: covered by the frame's fix.
        { url: 'https://www.youtube.com/s/player/base.js', resourceType: 'script', frame: 'https://www.youtube.com/embed/x' },
        script(GA4_URL),
      ],
    }));
    expect(found.map((v) => [v.embedding?.name, v.fix])).toEqual([
      ['YouTube', 'iframe on /contact: use data-ccm-src instead of src (the browser requests an iframe\'s src before any script can block it)'],
      ['GA', expect.stringContaining('<script type="text/x-ccm-loader" data-ccm-loader-src="…">')],
    ]);
  });

  it('allows the items of active technically necessary embeddings, unless the domain wants consent for those too', () => {
    const session = embedding({ id: 'se00001', name: 'Session', purpose: '41ba25c', assets: [asset('PHPSESSID'), asset('cart_*', 'localStorage')] });
    const seen = observed({
      cookies: [{ name: 'PHPSESSID', domain: 'www.shop.example', path: '/' }],
      localStorage: [{ name: 'cart_v2', origin: 'https://www.shop.example' }],
    });
    expect(new AuditRules([session], new Map(), false).violations(PAGE, 'beforeDecision', seen)).toEqual([]);
    expect(new AuditRules([session], new Map(), true).violations(PAGE, 'beforeDecision', seen)).toHaveLength(2);
    // Same name, other storage type: not declared.
    const other = observed({ localStorage: [{ name: 'PHPSESSID', origin: 'https://www.shop.example' }] });
    expect(new AuditRules([session], new Map(), false).violations(PAGE, 'beforeDecision', other)[0]!.fix).toMatch(/^localStorage key PHPSESSID is declared by no embedding/);
  });

  it('tells that stylesheets and fonts are not blocked, instead of a marker that would change nothing', () => {
    // Google Fonts' embed code (fonts.google.com): a <link rel="stylesheet">, whose CSS then loads the font files.
    const requests = [
      { url: 'https://fonts.googleapis.com/css2?family=Roboto:wght@400;700&display=swap', resourceType: 'stylesheet' },
      { url: 'https://fonts.gstatic.com/s/roboto/v47/KFO7CnqEu92Fr1ME7kSn66aGLdTylUAMa3yUBA.woff2', resourceType: 'font' },
    ];
    const none = new AuditRules([], new Map(), false).violations(PAGE, 'beforeDecision', observed({ requests }));
    expect(none.map((v) => [v.resourceType, v.embedding, v.preset?.name])).toEqual([['stylesheet', null, 'Google Fonts'], ['font', null, 'Google Fonts']]);
    expect(none[0]!.fix).toBe(
      'stylesheet from fonts.googleapis.com on /contact before consent: the widget blocks scripts and iframes, not stylesheets or fonts, so a ' +
        '<link> or @import in the page loads at once; host these fonts on the site itself (no consent is needed then) or remove them. Loaded by ' +
        'a script (such as Google\'s Web Font Loader), it is blocked with that script: add the script\'s URL as a script marker of the embedding of ' +
        'preset Google Fonts (POST …/onboarding/presets [{ "id": 99 }])',
    );
    // With the embedding in place the fix names it, and still does not claim that one of its scripts ran.
    const fonts = embedding({ id: 'gf00001', name: 'Fonts', purpose: '15c61c3', scriptMarkers: ['fonts.googleapis.com', 'fonts.gstatic.com'] });
    const found = new AuditRules([fonts], new Map(), false).violations(PAGE, 'afterDecline', observed({ requests }));
    expect(found.map((v) => v.embedding?.name)).toEqual(['Fonts', 'Fonts']);
    expect(found[1]!.fix).toMatch(/^font from fonts\.gstatic\.com on \/contact after "decline": the widget blocks scripts and iframes, not stylesheets or fonts.* script marker of embedding Fonts$/);
    expect(found.map((v) => v.fix).join()).not.toContain('ran');
    const dormant = new AuditRules([{ ...fonts, active: false }], new Map(), false).violations(PAGE, 'beforeDecision', observed({ requests }));
    expect(dormant[0]!.fix).toMatch(/script marker of embedding Fonts, and activate it \(inactive embeddings block nothing\)$/);
    // Fonts of a technically necessary embedding need no consent.
    const own = embedding({ id: 'gf00002', name: 'Fonts', purpose: '41ba25c', scriptMarkers: ['fonts.googleapis.com', 'fonts.gstatic.com'] });
    expect(new AuditRules([own], new Map(), false).violations(PAGE, 'beforeDecision', observed({ requests }))).toEqual([]);
  });

  it('tells that images are not blocked (a WordPress comment\'s Gravatar, a pixel without its <noscript>), instead of "a script ran"', () => {
    const requests = [
      { url: 'https://secure.gravatar.com/avatar/0bc83cb571cd1c50ba6f3e8a78ef1346?s=64&d=mm&r=g', resourceType: 'image' },
      { url: 'https://www.facebook.com/tr?id=1234567890&ev=PageView&noscript=1', resourceType: 'image' },
      { url: 'https://images.cdn-of-the-shop.example/hero.webp', resourceType: 'image' },
    ];
    const meta = embedding({ id: 'mp00001', name: 'Meta Pixel', purpose: 'cdcbd7c', scriptMarkers: ['connect.facebook.net', 'facebook.com/tr'] });
    const found = new AuditRules([meta], new Map(), false).violations(PAGE, 'beforeDecision', observed({ requests }));
    expect(found.map((v) => [v.embedding?.name ?? null, v.preset?.name ?? null])).toEqual([[null, 'Gravatar'], ['Meta Pixel', expect.any(String)], [null, null]]);
    for (const v of found) {
      expect(v.fix).toContain('the widget blocks scripts and iframes, not images or media');
      // Until 2026-11-29: "a script of embedding Meta Pixel ran; add that script's URL as a script marker", for a pixel in
      // the markup, where no script ran.
      expect(v.fix).not.toContain('ran');
    }
    expect(found[0]!.fix).toMatch(/^image from secure\.gravatar\.com on \/contact before consent: .*strictBlocking, whose policy refuses it with the embedding of preset Gravatar/);
    expect(found[1]!.fix).toMatch(/with embedding Meta Pixel\. Sent by a script \(new Image\(\)\), it is blocked with that script: add the script's URL as a script marker of embedding Meta Pixel$/);
    expect(found[2]!.fix).toContain('declare images.cdn-of-the-shop.example in a technically necessary embedding');
  });

  it('names the scripts above the snippet that need consent (an embedding\'s or a preset\'s), not the necessary or the site\'s own', () => {
    const session = embedding({ id: 'ses0001', name: 'Session', purpose: '41ba25c', scriptMarkers: ['/js/session.js'] });
    const rules = new AuditRules([session], new Map(), false);
    const above = ['https://www.shop.example/js/jquery.js', 'https://www.shop.example/js/session.js', GA4_URL, "fbq('init', '1');"];
    const placement = (r: AuditRules, scripts: string[]) => r.placement(PAGE, r.scriptsNeedingConsent(scripts));
    expect(placement(rules, above)).toMatch(
      /^\/contact: 2 script\(s\) that need consent come before the Placet snippet \(https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=G-ABC123XYZ9, inline script "fbq\('init', '1'\);…"\); a script above the Placet snippet may run/,
    );
    expect(placement(rules, above.slice(0, 2))).toBeUndefined();
    // With the domain wanting consent for necessary embeddings too, the session script counts.
    expect(placement(new AuditRules([session], new Map(), true), above.slice(0, 2))).toMatch(/^\/contact: 1 script\(s\)/);
    // The request of such a script gets the snippet's place as its fix, not a marker or markup to change.
    const [v] = rules.violations(PAGE, 'beforeDecision', observed({ requests: [script(GA4_URL)] }), new Set(rules.scriptsNeedingConsent(above)));
    expect(v).toMatchObject({ preset: { name: 'Google Analytics 4' } });
    expect(v!.fix).toMatch(/^script from www\.googletagmanager\.com on \/contact: a script above the Placet snippet may run before the widget can block it/);
  });

  it('matches markers case-insensitively', () => {
    const ga = embedding({ id: 'ga00001', name: 'GA', scriptMarkers: ['GoogleTagManager.com/gtag/js?id=g-'] });
    const [v] = new AuditRules([ga], new Map(), false).violations(PAGE, 'beforeDecision', observed({ requests: [script(GA4_URL)] }));
    expect(v!.embedding).toEqual({ id: 'ga00001', name: 'GA' });
  });
});

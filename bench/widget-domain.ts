import type { App } from '../src/app.js';

/**
 * The benchmark domain of the widget issue: four embeddings (with realistic texts and assets) and two
 * locales. Shared by `npm run bench:widget` and the size-budget test.
 */
export async function benchmarkDomain(app: App, key: string, host: string, appUrl: string) {
  const call = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const res = await app.inject({ method, url: `/hosting/api${url}`, headers: { authorization: `Bearer ${key}` }, payload: payload as object });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.body}`);
    return res.json();
  };
  const client = await call('POST', '/client', { username: `bench${Date.now()}`, password: 'long enough pw', emailAddress: 'bench@example.com' });
  const domain = await call('POST', `/client/${client.id}/domain`, { name: `http://${host}` });
  const base = `/client/${client.id}/domain/${domain.id}`;
  const text = (what: string) =>
    `${what} is provided by the vendor to measure and improve the website. The data is processed on servers in the European Union and the United States.`;
  const embeddings = [
    { name: 'Google Analytics 4', purpose: 'a717ff5', vendor: 'Google Ireland Limited, Gordon House, Barrow Street, Dublin 4, Ireland', scriptMarkers: ['googletagmanager.com/gtag/js', 'google-analytics.com'], googleConsentMode: ['analytics_storage'], assets: [{ name: '_ga', lifetime: '2 years', description: 'Distinguishes visitors.' }, { name: '_ga_*', lifetime: '2 years', description: 'Keeps the session state.' }] },
    { name: 'Meta Pixel', purpose: 'cdcbd7c', vendor: 'Meta Platforms Ireland Ltd., 4 Grand Canal Square, Dublin 2, Ireland', scriptMarkers: ['connect.facebook.net'], googleConsentMode: ['ad_storage', 'ad_user_data', 'ad_personalization'], assets: [{ name: '_fbp', lifetime: '3 months', description: 'Identifies browsers for advertising.' }] },
    { name: 'YouTube', purpose: '6cd2721', vendor: 'Google Ireland Limited, Gordon House, Barrow Street, Dublin 4, Ireland', iframeMarkers: ['youtube.com/embed', 'youtube-nocookie.com'], assets: [{ name: 'VISITOR_INFO1_LIVE', lifetime: '6 months', description: 'Estimates bandwidth.' }, { name: 'YSC', lifetime: 'Session', description: 'Counts video views.' }] },
    { name: 'Session cookie', purpose: '41ba25c', vendor: 'Website operator', assets: [{ name: 'PHPSESSID', lifetime: 'Session', description: 'Keeps the session.' }] },
  ];
  for (const e of embeddings) {
    await call('POST', `${base}/embedding`, {
      ...e,
      description: text(e.name),
      whatDataIsCollected: 'IP address, device information, pages visited, time of visit.',
      purposeOfDataCollection: 'Statistics and improvement of the offer.',
      legalBasis: 'Consent, Art. 6(1)(a) GDPR',
      placeOfProcessing: 'European Union; United States',
      privacyPolicyUrl: 'https://example.com/privacy',
      translations: { de_DE: { description: `${e.name} wird vom Anbieter bereitgestellt, um die Website zu messen und zu verbessern.`, legalBasis: 'Einwilligung, Art. 6 Abs. 1 lit. a DSGVO' } },
    });
  }
  await call('POST', `${base}/locale`, { name: 'de_DE' });
  await call('POST', `${base}/locale`, { name: 'en_US' });
  await call('POST', `${base}/placeholder`, { name: 'COMPANY', value: 'Bench GmbH' });
  return { clientId: client.id as string, domainId: domain.id as string, snippetSrc: `${appUrl}/public/app.js?apiKey=${client.apiKey}&domain=${domain.id}` };
}

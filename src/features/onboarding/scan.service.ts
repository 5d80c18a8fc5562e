import { isoNow, type Deps } from '../../deps.js';
import { metrics } from '../../metrics.js';
import { requireDomain } from '../domains/domain-scope.js';
import type { RawScan } from './crawl-state.js';
import { detectAddress } from './detectors/detect-address.js';
import { recordFoundLegalLinks } from './onboarding.repository.js';
import type { ScanResult } from './onboarding.schemas.js';
import { presetCatalogue, presetTranslations } from './preset-catalogue.js';
import { issueScanPass, presentScanPass } from './scan-pass.js';
import type { Scanner } from './scanner.js';
import { isSameSite } from './site.js';

/** Where the scanner starts: the domain's scheme (https unless created with http://), host[:port] and path. */
export function domainStartUrl(domain: { scheme: string; name: string; path: string }): URL {
  return new URL(`${domain.scheme}://${domain.name}${domain.path || '/'}`);
}

/** GET …/onboarding/scan: crawls the domain's website and derives address, legal links and presets. */
export async function scanDomain(deps: Deps, scanner: Scanner, clientId: string, domainId: string): Promise<ScanResult> {
  const domain = await requireDomain(deps.db, deps.engine, clientId, domainId);
  // The site may already have Placet's snippet: the scan's browser shows a pass, so the widget stands aside.
  const pass = await issueScanPass(deps, domain.id, deps.config.scan.timeoutMs + 60_000);
  const raw = await metrics.timeScan(() => scanner.scan(domainStartUrl(domain), (context) => presentScanPass(context, deps.config.publicUrl, pass)));
  const result = scanResult(raw);
  // Remembered for the import, which puts them on the banner where the domain has no legal links yet.
  await recordFoundLegalLinks(deps.db, domain.id, result, isoNow(deps.clock)).catch((err: unknown) => {
    deps.log.warn({ err, domainId: domain.id }, 'onboarding: the legal links found could not be stored (domain deleted meanwhile?)');
  });
  return result;
}

export function scanResult(raw: RawScan & { durationMs: number }): ScanResult {
  // The first page scanned is where the start URL finally landed (http → https, www, …).
  const root = new URL(raw.pagesScanned[0] ?? raw.startUrl);
  const thirdParty = (url: string) => !isSameSite(new URL(url).hostname, root.hostname);
  const matches = presetCatalogue().matcher.matchAll({
    cookie: raw.cookies.map((c) => c.name),
    localStorage: raw.localStorage.map((s) => s.name),
    sessionStorage: raw.sessionStorage.map((s) => s.name),
    scripts: raw.scripts,
    iframes: raw.iframes,
    inlineScripts: raw.inlineScripts,
  });
  return {
    address: raw.imprintText ? detectAddress(raw.imprintText) : { company: null, street: null, zipCode: null, city: null },
    imprintUrl: raw.legal.imprintUrl,
    privacyPolicyUrl: raw.legal.privacyPolicyUrl,
    availablePresets: matches.map(({ preset, evidence }) => ({
      id: preset.id,
      name: preset.name,
      purpose: preset.purpose,
      vendor: preset.vendor,
      translations: presetTranslations(preset),
      matchedBy: [...evidence],
    })),
    storage: {
      cookies: raw.cookies,
      localStorage: raw.localStorage,
      sessionStorage: raw.sessionStorage,
    },
    mode: raw.mode,
    url: raw.startUrl,
    pagesScanned: raw.pagesScanned,
    scripts: raw.scripts.filter(thirdParty),
    iframes: raw.iframes.filter(thirdParty),
    blockedRequests: raw.blockedRequests,
    warnings: raw.warnings,
    durationMs: raw.durationMs,
  };
}

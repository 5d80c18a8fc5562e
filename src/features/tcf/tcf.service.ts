import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { Domain } from '../domains/domains.schemas.js';
import type { Embedding } from '../embeddings/embeddings.schemas.js';
import type { TcfConfig } from '../../../widget/src/types.js';
import type { LocaleTexts } from '../locales/builtin-texts.js';
import { gvlStoreFor, type GvlJson } from './tcf.gvl.js';
import { domainBaseline, vendorsFirstSeenAfter } from './tcf.repository.js';

export type TcfDomain = Pick<
  Domain,
  'id' | 'tcfEnabled' | 'tcfEnableNewVendorsAfterGvlUpdate' | 'tcfVendorBlacklist' | 'tcfSpecialFeatures' |
  'tcfGoogleAdditionalConsentMode' | 'tcfGoogleAdditionalConsentAdProviders' | 'tcfUrlMacroAutoAppend' | 'tcfUrlMacroHandling'
>;

/** Why a tcfEnabled domain gets no TCF signal, or undefined when it gets one. */
export function tcfUnavailable(deps: Deps): string | undefined {
  if (deps.config.tcf.cmpId === undefined) return 'TCF_CMP_ID is not set on this Placet instance';
  if (!gvlStoreFor(deps).current) return 'the Global Vendor List has not been fetched yet';
  return undefined;
}

/**
 * The vendors a domain offers (docs/tcf.md, "Vendor selection"): every vendor of the current GVL that is
 * not deleted and not on tcfVendorBlacklist; vendors that joined the GVL after the domain's baseline
 * version only with tcfEnableNewVendorsAfterGvlUpdate. Vendors linked to an embedding are always offered
 * (the agency chose them) unless blacklisted.
 */
export async function vendorSelection(deps: Deps, domain: TcfDomain, gvl: GvlJson, embeddings: readonly Embedding[]): Promise<number[]> {
  const baseline = await domainBaseline(deps.db, domain.id, gvl.vendorListVersion);
  const newer = domain.tcfEnableNewVendorsAfterGvlUpdate ? new Set<number>() : new Set(await vendorsFirstSeenAfter(deps.db, baseline));
  const blacklist = new Set(domain.tcfVendorBlacklist);
  const linked = new Set(embeddings.map((e) => e.tcfVendor).filter((v): v is number => v !== null));
  const now = deps.clock.now().getTime();
  return Object.values(gvl.vendors)
    .filter((v) => !(v.deletedDate && Date.parse(v.deletedDate) <= now))
    .map((v) => v.id)
    .filter((id) => !blacklist.has(id) && (!newer.has(id) || linked.has(id)))
    .sort((a, b) => a - b);
}

/** The `tcf` part of the served widget configuration, or undefined (no TCF, or TCF unavailable). */
export async function tcfWidgetConfig(deps: Deps, domain: TcfDomain, embeddings: readonly Embedding[]): Promise<TcfConfig | undefined> {
  const gvl = gvlStoreFor(deps).current;
  const cmpId = deps.config.tcf.cmpId;
  if (!domain.tcfEnabled || !gvl || cmpId === undefined) return undefined;
  const base = deps.config.publicUrl;
  const vs = await vendorSelection(deps, domain, gvl, embeddings);
  const offered = new Set(vs);
  const el: TcfConfig['el'] = {};
  for (const e of embeddings) if (e.tcfVendor !== null && offered.has(e.tcfVendor)) el[e.id] = [e.tcfVendor, [...e.tcfPurposes]];
  return {
    c: cmpId,
    cv: deps.config.tcf.cmpVersion,
    v: gvl.vendorListVersion,
    vs,
    sf: [...new Set(domain.tcfSpecialFeatures)].filter((id) => gvl.specialFeatures[String(id)] !== undefined).sort((a, b) => a - b),
    g: `${base}/public/tcf/${domain.id}/vendor-list.json`,
    js: `${base}/public/tcf.js`,
    ...(domain.tcfGoogleAdditionalConsentMode ? { ac: [...new Set(domain.tcfGoogleAdditionalConsentAdProviders)].sort((a, b) => a - b) } : {}),
    mu: [domain.tcfUrlMacroAutoAppend, domain.tcfUrlMacroHandling],
    el,
  };
}

/** The GVL name of an embedding's linked vendor (it overrides `vendor`, reference-model §2.5 Embedding). */
export function linkedVendorName(deps: Deps, tcfVendor: number | null): string | undefined {
  if (tcfVendor === null) return undefined;
  return gvlStoreFor(deps).current?.vendors[String(tcfVendor)]?.name;
}

/**
 * The domain's GVL as the TCF chunk loads it: the current list with only the offered vendors, and with a
 * `lang` whose translation is stored, purposes, features and stacks in that language (the IAB's
 * purposes-<lang>.json merged in, as @iabtechlabtcf/core's changeLanguage would).
 */
export async function domainGvl(deps: Deps, domain: TcfDomain, embeddings: readonly Embedding[], lang: string | undefined): Promise<GvlJson> {
  const store = gvlStoreFor(deps);
  const gvl = store.current;
  if (!domain.tcfEnabled || !gvl) throw new AppError('TCF_NOT_AVAILABLE');
  const selection = new Set(await vendorSelection(deps, domain, gvl, embeddings));
  const vendors = Object.fromEntries(Object.entries(gvl.vendors).filter(([, v]) => selection.has(v.id)));
  const language = lang?.slice(0, 2).toLowerCase();
  const translation = language && language !== 'en' ? store.translation(language) : undefined;
  const texts = translation
    ? Object.fromEntries(
      (['purposes', 'specialPurposes', 'features', 'specialFeatures', 'stacks', 'dataCategories'] as const)
        .filter((k) => translation[k] !== undefined)
        .map((k) => [k, translation[k]]),
    )
    : {};
  return { ...gvl, ...texts, vendors, ...(translation ? { language } : {}) } as GvlJson;
}

const TCF_TEXT_FIELDS = [
  'tcfVendorIntroText', 'tcfPurposeLabel', 'tcfSpecialPurposeLabel', 'tcfFeaturesLabel', 'tcfSpecialFeaturesLabel',
  'tcfOptedInRemark', 'tcfThirdPartiesLabel', 'tcfSpecialFeaturesHandledGloballyText', 'tcfVendorUsesNonCookieStorageText',
] as const;

/** The Locale's TCF texts the TCF chunk shows (the base widget's texts leave them out: WIDGET_TEXT_FIELDS). */
export function tcfTexts(texts: LocaleTexts): Record<string, string> {
  return Object.fromEntries(TCF_TEXT_FIELDS.map((f) => [f, texts[f]]));
}

import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { Domain } from '../domains/domains.schemas.js';
import type { Embedding } from '../embeddings/embeddings.schemas.js';
import type { TcfConfig, TcfFirstLayer } from '../../../widget/src/types.js';
import type { LocaleTexts } from '../locales/builtin-texts.js';
import { gvlStoreFor, type GvlJson, type GvlStore, type GvlVendor } from './tcf.gvl.js';
import { pickStacks, type GvlStack } from './tcf.stacks.js';
import { domainBaseline, vendorsFirstSeenAfter } from './tcf.repository.js';

export type TcfDomain = Pick<
  Domain,
  'id' | 'tcfEnabled' | 'tcfEnableNewVendorsAfterGvlUpdate' | 'tcfVendorBlacklist' | 'tcfSpecialFeatures' |
  'tcfGoogleAdditionalConsentMode' | 'tcfGoogleAdditionalConsentAdProviders' | 'tcfUrlMacroAutoAppend' | 'tcfUrlMacroHandling' |
  'tcfStacks' | 'tcfPublisherRestrictions'
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
export async function tcfWidgetConfig(
  deps: Deps, domain: TcfDomain, embeddings: readonly Embedding[], locales: readonly string[],
): Promise<TcfConfig | undefined> {
  const gvl = gvlStoreFor(deps).current;
  const cmpId = deps.config.tcf.cmpId;
  if (!domain.tcfEnabled || !gvl || cmpId === undefined) return undefined;
  const base = deps.config.publicUrl;
  const vs = await vendorSelection(deps, domain, gvl, embeddings);
  const offered = new Set(vs);
  const el: TcfConfig['el'] = {};
  for (const e of embeddings) if (e.tcfVendor !== null && offered.has(e.tcfVendor)) el[e.id] = [e.tcfVendor, [...e.tcfPurposes]];
  const sf = [...new Set(domain.tcfSpecialFeatures)].filter((id) => gvl.specialFeatures[String(id)] !== undefined).sort((a, b) => a - b);
  const pr = domain.tcfPublisherRestrictions
    // A GVL update can make a stored restriction impossible; it is left out rather than dropped silently by the
    // IAB library when encoding, so the stored TC strings and the configuration agree (no re-ask on every visit).
    .filter((r) => offered.has(r.vendorId) && !gvlProblem(gvl, r) && !(r.restrictionType === 'requireLegitimateInterest' && CONSENT_ONLY.has(r.purposeId)))
    .map((r): [number, number, number] => [r.vendorId, r.purposeId, RESTRICTION_TYPES[r.restrictionType]]);
  return {
    c: cmpId,
    cv: deps.config.tcf.cmpVersion,
    v: gvl.vendorListVersion,
    vs,
    sf,
    g: `${base}/public/tcf/${domain.id}/vendor-list.json`,
    f: firstLayers(gvlStoreFor(deps), gvl, vs, sf, domain.tcfStacks === 'auto', locales),
    ...(pr.length > 0 ? { pr } : {}),
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

/** The TC string's restriction types (@iabtechlabtcf/core RestrictionType). */
const RESTRICTION_TYPES = { notAllowed: 0, requireConsent: 1, requireLegitimateInterest: 2 } as const;
/** TCF 2.2: purposes 1, 3, 4, 5 and 6 can only rest on consent. */
const CONSENT_ONLY = new Set([1, 3, 4, 5, 6]);

/**
 * Checks a domain's publisher restrictions (docs/tcf.md, "Publisher restrictions"): one restriction per
 * vendor and purpose; "require legitimate interest" never for a purpose that can only rest on consent; and,
 * against the current GVL, only for a vendor of the list, for a purpose the vendor declares, and a change of
 * legal basis only for a purpose the vendor declares flexible on its default basis. The IAB's library would
 * otherwise drop such a restriction silently when it encodes, and the publisher would believe it applies.
 */
export function assertPublisherRestrictions(deps: Deps, list: TcfDomain['tcfPublisherRestrictions'] | undefined): void {
  if (!list || list.length === 0) return;
  const gvl = gvlStoreFor(deps).current;
  const details: { field: string; message: string }[] = [];
  const seen = new Set<string>();
  list.forEach((r, i) => {
    const field = `body.tcfPublisherRestrictions.${i}`;
    const key = `${r.vendorId}:${r.purposeId}`;
    if (seen.has(key)) details.push({ field, message: `vendor ${r.vendorId} has more than one restriction for purpose ${r.purposeId}` });
    seen.add(key);
    if (r.restrictionType === 'requireLegitimateInterest' && CONSENT_ONLY.has(r.purposeId)) {
      details.push({ field, message: `purpose ${r.purposeId} can only rest on consent (TCF 2.2)` });
    }
    const problem = gvl && gvlProblem(gvl, r);
    if (problem) details.push({ field, message: problem });
  });
  if (details.length > 0) throw new AppError('VALIDATION_FAILED', details.slice(0, 50));
}

/** Why the GVL does not allow a restriction (the IAB library's own rule, PurposeRestrictionVector.isOkToHave), or undefined. */
function gvlProblem(gvl: GvlJson, r: TcfDomain['tcfPublisherRestrictions'][number]): string | undefined {
  const v = gvl.vendors[String(r.vendorId)];
  if (!v) return `vendor ${r.vendorId} is not in the Global Vendor List (version ${gvl.vendorListVersion})`;
  const flexible = (v.flexiblePurposes as number[] | undefined) ?? [];
  if (!v.purposes.includes(r.purposeId) && !v.legIntPurposes.includes(r.purposeId)) return `vendor ${r.vendorId} does not declare purpose ${r.purposeId}`;
  if (r.restrictionType === 'requireConsent' && !(flexible.includes(r.purposeId) && v.legIntPurposes.includes(r.purposeId))) {
    return `vendor ${r.vendorId} does not declare purpose ${r.purposeId} as flexible on legitimate interest`;
  }
  if (r.restrictionType === 'requireLegitimateInterest' && !(flexible.includes(r.purposeId) && v.purposes.includes(r.purposeId))) {
    return `vendor ${r.vendorId} does not declare purpose ${r.purposeId} as flexible on consent`;
  }
  return undefined;
}

type Named = Record<string, { name?: unknown; description?: unknown } | undefined>;

/**
 * The first layer per locale: inlined into app.js so it opens without the domain's GVL (docs/tcf.md). Purposes:
 * those the offered vendors declare (for consent or legitimate interest); with tcfStacks `auto`, the stacks
 * pickStacks chooses replace the purposes and special features they contain.
 */
function firstLayers(
  store: GvlStore, gvl: GvlJson, offered: readonly number[], sf: readonly number[], stacksOn: boolean, locales: readonly string[],
): Record<string, TcfFirstLayer> {
  const vendors = offered.map((id) => gvl.vendors[String(id)]).filter((v) => v !== undefined);
  const used = (pick: (v: GvlVendor) => unknown) =>
    [...new Set(vendors.flatMap((v) => (pick(v) as number[] | undefined) ?? []))].sort((a, b) => a - b);
  const purposes = used((v) => [...v.purposes, ...v.legIntPurposes]);
  const stackList = Object.values((gvl.stacks ?? {}) as Record<string, GvlStack>);
  const stacks = stacksOn ? pickStacks(stackList, purposes, sf) : [];
  const inStack = (key: 'purposes' | 'specialFeatures') =>
    new Set(stacks.flatMap((id) => stackList.find((s) => s.id === id)?.[key] ?? []));
  const coveredP = inStack('purposes');
  const coveredF = inStack('specialFeatures');
  const out: Record<string, TcfFirstLayer> = {};
  for (const locale of locales) {
    const language = locale.slice(0, 2).toLowerCase();
    const tr = language !== 'en' ? store.translation(language) : undefined;
    const map = (k: 'purposes' | 'specialPurposes' | 'features' | 'specialFeatures' | 'stacks') =>
      ({ ...(gvl[k] as Named | undefined), ...(tr?.[k] as Named | undefined) });
    const names = (k: 'purposes' | 'specialPurposes' | 'features' | 'specialFeatures', ids: number[]) =>
      ids.map((id) => String(map(k)[String(id)]?.name ?? '')).filter(Boolean);
    out[locale] = {
      l: tr ? language : 'en',
      s: stacks.map((id) => { const s = map('stacks')[String(id)]; return [String(s?.name ?? ''), String(s?.description ?? '')]; }),
      p: names('purposes', purposes.filter((p) => !coveredP.has(p))),
      sp: names('specialPurposes', used((v) => v.specialPurposes)),
      fe: names('features', used((v) => v.features)),
      sf: names('specialFeatures', sf.filter((f) => !coveredF.has(f))),
    };
  }
  return out;
}

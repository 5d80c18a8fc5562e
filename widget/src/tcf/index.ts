/**
 * The TCF chunk (docs/tcf.md): only on tcfEnabled domains, inlined by the server in app.js after the widget and
 * the first layer (first.ts), and run after the first paint. It draws the TCF vendor layer into
 * the widget's own shadow root, encodes the visitor's choices with the IAB's @iabtechlabtcf/core, answers
 * `__tcfapi` through @iabtechlabtcf/cmpapi, and decides the widget's embeddings through the widget.
 */
import { CmpApi } from '@iabtechlabtcf/cmpapi';
import { GVL, PurposeRestriction, TCModel, TCString, type Vector } from '@iabtechlabtcf/core';
import { B, COOKIE, own, t, tt, type Button, type Kid } from './bridge.js';
import { T as TF } from '../text-fields.js';

const AC_COOKIE = 'addtl_consent';
const NECESSARY = '41ba25c';

const { c, S, h, btn, toggle, dialog } = B;
const T = c.tcf;

/** The visitor's choices as the layers edit them. */
const sel = { p: new Set<number>(), sf: new Set<number>(), v: new Set<number>(), li: new Set<number>(), ac: new Set<number>(), em: new Set<string>() };
let gvl: GVL | undefined;
/** The domain's full GVL: the vendor layer and the TC string wait for it, the first layer does not (T.f). */
let ready: Promise<GVL>;
let ac: string | undefined;

/** The IAB stub's queue (the stub hands it out when called without arguments), taken before the CMP API replaces it. */
const stubQueue = (window as unknown as { __tcfapi?: () => unknown }).__tcfapi?.();

// The CMP API replaces the stub at once and answers the calls vendors queued before this chunk loaded;
// getTCData and the event listeners wait until the first update() below. addtlConsent is added to the
// TCData object when Google Additional Consent is on (Google's AC spec).
const cmp = new CmpApi(T.c, T.cv, true, T.ac ? {
  getTCData: (next: (data: unknown, ok: boolean) => void, data: unknown, ok: boolean) =>
    next(data && typeof data === 'object' ? Object.assign(data, { addtlConsent: ac }) : data, ok),
} : undefined);

// A vendor that looked `__tcfapi` up once, before this chunk ran (Prebid's consent module does), still holds the
// stub: its later calls land in the stub's queue, which the CMP API read only once. From now on that queue hands
// every call on to the CMP API (the stub itself still answers `ping` as "stub", as the IAB's code does).
if (Array.isArray(stubQueue)) {
  stubQueue.push = (...calls: unknown[][]) => {
    for (const a of calls) (window as unknown as { __tcfapi: (...x: unknown[]) => void }).__tcfapi(...a);
    return 0;
  };
}

/** The prefix's URL macro handler (prefix.ts), called again with each new decision. */
const macros = (tc: string, a: string | undefined) =>
  ((window as unknown as Record<symbol, (tc: string, ac: string) => void>)[Symbol.for('placet.tcf.macros')])?.(tc, a ?? '');

const cookie = (name: string) =>
  document.cookie.split('; ').find((x) => x.startsWith(`${name}=`))?.slice(name.length + 1);

const setCookie = (name: string, value: string) => {
  const age = c.lt > 0 ? `;max-age=${c.lt * 86400}` : '';
  document.cookie = `${name}=${value};path=/;samesite=lax${age}${location.protocol === 'https:' ? ';secure' : ''}`;
};

const ids = (v: Vector) => {
  const out: number[] = [];
  v.forEach((on, id) => on && out.push(id));
  return out;
};

/** Google AC string v2: the consented provider ids, then the disclosed but not consented ones, each ascending. */
const acString = (on: Set<number>) =>
  `2~${T.ac!.filter((id) => on.has(id)).join('.')}~dv.${T.ac!.filter((id) => !on.has(id)).join('.')}`;
/** The consented providers of a stored AC string. */
const acConsented = (value: string | undefined) => new Set((value?.match(/^2~([\d.]*)~/)?.[1] ?? '').split('.').filter(Boolean).map(Number));

/** The publisher restrictions as `vendor:purpose:type`, in order: what a stored string must carry to stay valid. */
const restrictionKey = (list: [number, number, number][]) => list.map((r) => r.join(':')).sort().join();

/** The stored TC string, when it is still valid: same CMP, and shown exactly the vendors offered now. */
function storedModel(): TCModel | undefined {
  const tc = cookie(COOKIE);
  if (!tc || !S.decided || c.oe) return undefined;
  try {
    const m = TCString.decode(tc);
    const disclosed = ids(m.vendorsDisclosed);
    if (m.cmpId !== T.c || disclosed.join() !== T.vs.join()) return undefined;
    // Changed publisher restrictions change the signal vendors must honour: the visitor is asked again.
    const stored: [number, number, number][] = [];
    for (const r of m.publisherRestrictions.getRestrictions()) {
      for (const v of m.publisherRestrictions.getVendors(r)) stored.push([v, r.purposeId!, r.restrictionType!]);
    }
    if (restrictionKey(stored) !== restrictionKey(T.pr ?? [])) return undefined;
    return m;
  } catch {
    return undefined;
  }
}

function model(): TCModel {
  const m = new TCModel(gvl);
  m.cmpId = T.c;
  m.cmpVersion = T.cv;
  m.isServiceSpecific = true;
  m.consentScreen = S.layer || 1;
  m.consentLanguage = (gvl!.language || 'en').toUpperCase();
  m.setAllVendorsDisclosed();
  for (const [v, p, type] of T.pr ?? []) m.publisherRestrictions.add(v, new PurposeRestriction(p, type));
  return m;
}

const vendors = () => T.vs.map((id) => gvl!.vendors[id]).filter((v) => v !== undefined);
type Vendor = GVL['vendors'][string];
/**
 * A vendor's purposes by legal basis once the publisher restrictions apply (docs/tcf.md): not allowed removes
 * the purpose, require consent / require LI move a flexible purpose to the other basis.
 */
function bases(v: Vendor): { consent: number[]; li: number[] } {
  const consent = new Set(v.purposes);
  const li = new Set(v.legIntPurposes);
  for (const [id, p, type] of T.pr ?? []) {
    if (id !== v.id) continue;
    const flexible = v.flexiblePurposes.includes(p);
    if (type === 0) {
      consent.delete(p);
      li.delete(p);
    } else if (type === 1 && flexible && li.delete(p)) consent.add(p);
    else if (type === 2 && flexible && consent.delete(p)) li.add(p);
  }
  const sorted = (x: Set<number>) => [...x].sort((a, b) => a - b);
  return { consent: sorted(consent), li: sorted(li) };
}
const liVendors = () => vendors().filter((v) => bases(v).li.length > 0).map((v) => v.id);
/** TCF 2.2: purposes 1, 3, 4, 5 and 6 can only be based on consent; the others may rest on legitimate interest. */
const liPurposes = () => Object.keys(gvl!.purposes).map(Number).filter((p) => ![1, 3, 4, 5, 6].includes(p));

/** The embeddings a TC model allows: linked ones by their vendor and TCF purposes, the others as chosen. */
const embeddingsFor = (m: TCModel, others: Set<string>) =>
  c.em.filter((e) => {
    const link = T.el[e.i];
    if (!link) return others.has(e.i);
    return m.vendorConsents.has(link[0]) && link[1].every((p) => m.purposeConsents.has(p));
  }).map((e) => e.i);

async function decide(ev: Event | undefined, button: Exclude<Button, 'more'>) {
  if (c.th.mp && !ev?.isTrusted) return;
  // The first layer opens before the GVL has arrived; a click that quick waits for it (no TC string without it).
  await ready;
  const m = model();
  if (button === 'acceptAll') {
    m.setAllPurposeConsents();
    m.setAllVendorConsents();
    m.vendorLegitimateInterests.set(liVendors());
    m.purposeLegitimateInterests.set(liPurposes());
    m.specialFeatureOptins.set(T.sf);
  } else if (button === 'save') {
    m.purposeConsents.set([...sel.p]);
    m.vendorConsents.set([...sel.v]);
    m.vendorLegitimateInterests.set([...sel.li]);
    if (sel.li.size > 0) m.purposeLegitimateInterests.set(liPurposes());
    m.specialFeatureOptins.set([...sel.sf].filter((f) => T.sf.includes(f)));
  }
  // declineAll: no consent, and an objection to every legitimate interest (docs/tcf.md).
  const tc = TCString.encode(m);
  setCookie(COOKIE, tc);
  ac = T.ac ? acString(button === 'acceptAll' ? new Set(T.ac) : button === 'save' ? sel.ac : new Set()) : undefined;
  if (ac) setCookie(AC_COOKIE, ac);
  const all = c.em.map((e) => e.i);
  S.tc = tc;
  S.ac = ac;
  B.decide(button === 'acceptAll' ? all : button === 'declineAll' ? [] : embeddingsFor(m, sel.em), button);
  S.tc = S.ac = undefined;
  loadSelection(TCString.decode(tc));
  macros(tc, ac);
  cmp.update(tc, false);
}

/** A button's handler; without the GVL (its fetch failed) nothing is saved and the layer stays (fail closed). */
const act = (button: Exclude<Button, 'more'>) => (ev: Event | undefined) =>
  void decide(ev, button).catch((err) => console.warn('Placet: the TCF choice could not be saved', err));

/** What the vendor layer must disclose per vendor (TCF policy): purposes by legal basis, storage, retention, data, links. */
function vendorFacts(v: Vendor): Kid[] {
  const g = gvl!;
  const basis = bases(v);
  const list = (label: string, map: Record<string, { name: string }> | undefined, idList: number[] | undefined) =>
    idList && idList.length > 0 && h('p', {}, h('strong', {}, `${label}: `), idList.map((id) => map?.[id]?.name ?? id).join(', '));
  const url = v.urls?.find((u) => u.langId === S.lang.slice(0, 2)) ?? v.urls?.[0];
  const days = v.dataRetention?.stdRetention;
  const age = v.cookieMaxAgeSeconds;
  return [
    list(`${tt('tcfPurposeLabel')} (${own(0)})`, g.purposes, basis.consent),
    list(`${tt('tcfPurposeLabel')} (${own(1)})`, g.purposes, basis.li),
    list(tt('tcfSpecialPurposeLabel'), g.specialPurposes, v.specialPurposes),
    list(tt('tcfFeaturesLabel'), g.features, v.features),
    list(tt('tcfSpecialFeaturesLabel'), g.specialFeatures, v.specialFeatures),
    list(own(4), g.dataCategories, v.dataDeclaration),
    h('p', {}, `${own(5)}: ${v.usesCookies && age !== null ? `${Math.round(age / 86400)} d` : '–'}${days !== undefined ? `; ${own(6)}: ${days} d` : ''}`),
    v.usesNonCookieAccess && h('p', {}, tt('tcfVendorUsesNonCookieStorageText')),
    url?.privacy && h('a', { href: url.privacy, target: '_blank', rel: 'noopener' }, t(TF.privacyPolicy) || 'Privacy policy'),
    url?.legIntClaim && h('a', { href: url.legIntClaim, target: '_blank', rel: 'noopener' }, ` ${own(1)}`),
  ];
}

const flip = <T,>(set: Set<T>, id: T) => (v: boolean) => (v ? set.add(id) : set.delete(id));

/** Vendor layer: purposes, special features, each vendor's consent and legitimate interest, other embeddings. */
function second(): HTMLElement {
  const g = gvl!;
  const others = c.em.filter((e) => !T.el[e.i] && e.p !== NECESSARY);
  return dialog(
    tt('tcfThirdPartiesLabel'),
    true,
    h('p', {}, tt('tcfVendorIntroText')),
    h('h3', {}, tt('tcfPurposeLabel')),
    ...Object.values(g.purposes).map((p) => toggle(p.name, sel.p.has(p.id), false, false, flip(sel.p, p.id))),
    T.sf.length > 0 && h('h3', {}, tt('tcfSpecialFeaturesLabel')),
    ...T.sf.map((id) => g.specialFeatures[id] && toggle(g.specialFeatures[id]!.name, sel.sf.has(id), false, false, flip(sel.sf, id))),
    h('h3', {}, tt('tcfThirdPartiesLabel')),
    ...vendors().map((v) =>
      h('details', { 'data-vendor': v.id },
        h('summary', {}, v.name),
        bases(v).consent.length > 0 && toggle(`${v.name}: ${own(0)}`, sel.v.has(v.id), false, false, flip(sel.v, v.id)),
        bases(v).li.length > 0 && toggle(`${v.name}: ${own(1)}`, sel.li.has(v.id), false, false, flip(sel.li, v.id)),
        ...vendorFacts(v),
      ),
    ),
    // Google Additional Consent: one switch per ATP provider (Google's provider names are not fetched: by id).
    T.ac !== undefined && T.ac.length > 0 && h('h3', {}, own(2)),
    ...(T.ac ?? []).map((id) => toggle(`${own(7)} ${id}`, sel.ac.has(id), false, false, flip(sel.ac, id))),
    others.length > 0 && h('h3', {}, tt('nonTcfVendorsLabel') || t(TF.categoriesTitle)),
    ...others.map((e) => toggle(c.loc[S.lang]?.e[e.i]?.[0] ?? e.n, sel.em.has(e.i), false, false, flip(sel.em, e.i))),
    h('div', { class: 'n' },
      btn('a', t(TF.categoriesSaveButtonText), act('save')),
      btn('a', t(TF.categoriesFullConsentButtonText) || own(3), act('acceptAll')),
      btn('d', t(TF.widgetDeclineButtonText), act('declineAll')),
    ),
  );
}

/** The layers start from the stored choice, or from "legitimate interest stands, no consent yet". */
function loadSelection(m: TCModel | undefined) {
  sel.p = new Set(m ? ids(m.purposeConsents) : []);
  sel.sf = new Set(m ? ids(m.specialFeatureOptins) : []);
  sel.v = new Set(m ? ids(m.vendorConsents) : []);
  sel.li = new Set(m ? ids(m.vendorLegitimateInterests) : liVendors());
  sel.ac = acConsented(cookie(AC_COOKIE));
  sel.em = new Set(S.acc);
}

/** The domain's GVL: the fetch the prefix started (prefix.ts), or a new one in another language than the widget's. */
async function loadGvl(): Promise<GVL> {
  const early = (window as unknown as Record<symbol, [string, Promise<unknown>] | undefined>)[Symbol.for('placet.tcf.gvl')];
  const lang = S.lang.slice(0, 2).toLowerCase();
  const json = early && early[0] === lang
    ? await early[1]
    : await (await fetch(`${T.g}?lang=${encodeURIComponent(S.lang)}`)).json();
  gvl = new GVL(json as ConstructorParameters<typeof GVL>[0]);
  loadSelection(storedModel());
  return gvl;
}

function start() {
  ready = loadGvl();
  // Without the GVL no TC string can be written: the first layer stays open and nothing is accepted (fail closed).
  ready.catch((err) => console.warn('Placet: the TCF vendor list could not be loaded', err));
  B.views[2] = second;
  B.act = (ev, button) => (button === 'more' ? void ready.then(() => B.render(2)) : act(button)(ev));
  if (c.oe) {
    cmp.update(null);
    return;
  }
  // A stored string needs no GVL to be checked or answered: a returning visitor's vendors hear tcloaded at once.
  if (storedModel()) {
    const tc = cookie(COOKIE)!;
    ac = T.ac ? cookie(AC_COOKIE) ?? acString(new Set()) : undefined;
    macros(tc, ac);
    cmp.update(tc, false);
    return;
  }
  // No valid TC string: the first layer opens (not on a legal page or after the banner was closed in this tab);
  // first.ts has opened it already unless a stored string had to be checked.
  cmp.update('', B.ask);
  if (B.ask && !B.shown) B.render(1);
  if (B.q) B.act(...B.q);
}

try {
  start();
} catch (err) {
  console.warn('Placet: the TCF layer could not start', err);
}

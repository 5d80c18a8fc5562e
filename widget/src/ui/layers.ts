/**
 * The layers: 1 the banner, 2 the settings (purposes), 3 the details (embeddings), 4 a legal text, 0 only the
 * settings icon. They live in an open shadow root on `<div id="ccm-widget">`, the first child of `<body>`.
 */
import { assetTable, btn, h, link, purposes, toggle, trusted, vars } from './dom.js';
import { afterPaint, decide, fixed } from '../storage.js';
import { CSS, ICON } from '../style.js';
import { c, dnt, doc, em, gpc, implicit, S, th } from '../state.js';
import { api, dispatch } from '../api.js';
import { bundle, t, texts } from '../i18n.js';
import { T } from '../text-fields.js';

export const FOCUSABLE = 'button,input:not([disabled]),a[href],summary';

export const build = () => {
  S._host = h('div', { id: 'ccm-widget' });
  const root = S._host.attachShadow({ mode: 'open' });
  root.append(h('style', {}, `:host{${vars}}${CSS}${th.css}`));
  // The root class of the reference model, so that custom CSS written for it applies unchanged.
  S._panel = h('div', { class: 'ccm-root' });
  root.append(S._panel);
  root.addEventListener('keydown', (ev) => {
    const e = ev as KeyboardEvent;
    if (!S.layer) return;
    if (e.key == 'Escape') {
      if (__PLACET_OPT__ && S.layer == 4) render(S._legalFrom!);
      else if (S.layer == 3) render(2);
      else if (S.layer == 2) back();
      else if (S.decided) closeLayer();
      else if (th.close) dismiss();
    } else if (e.key == 'Tab' && (S.layer > 1 || th.blocking)) {
      const f = [...S._panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const i = f.indexOf(root.activeElement as HTMLElement);
      const next = e.shiftKey ? (i <= 0 ? f.length - 1 : i - 1) : i == f.length - 1 ? 0 : i + 1;
      f[next]?.focus();
      e.preventDefault();
    }
  });
};

// The widget lives in <body> so that it inherits the site's font: a face the page loads anyway, where a
// font of its own costs a lookup in the browser process per weight in the first layout. With the snippet
// first in <head> there is no body yet: the widget is built now, detached, and inserted by the observer
// above as soon as the parser adds <body>, which is still before the first frame.
export function show() {
  if (S._host.isConnected || !doc.body) return;
  doc.body.prepend(S._host);
  if (S.layer > 1 || (S.layer && th.blocking)) focusFirst();
}

export const acceptAll = (ev: Event) => trusted(ev) && decide(em.map((e) => e.i), 'acceptAll');

export const declineAll = () => decide([], 'declineAll');

export const save = (ev: Event) => trusted(ev) && decide(S._sel, 'save');

// Legal pages open in a layer of their own (display mode `direct`, the locale's HTML) or as links. With more
// than one language offered, the footer also has the language switcher: each language named in itself, the
// focus kept on it across the redraw (arrow keys change a closed <select> one step at a time).
export const legalLinks = (L = Object.keys(c.loc)) =>
  h('p', { class: 'l' }, ...c.lg.map(([f, direct, blank]) =>
    __PLACET_OPT__ && direct && t(f + 2)
      ? btn('k', t(f), () => ((S._legal = f), (S._legalFrom = S.layer), render(4)))
      : link(t(f), t(f + 1), blank),
  ), L[1] && h('select', {
    'aria-label': t(T.languageLabel),
    onchange: (ev: Event) => (api.switchLocale((ev.target as HTMLSelectElement).value), S._panel.querySelector('select')!.focus()),
  }, ...L.map((n) => h('option', { value: n, selected: n == S.lang }, c.loc[n]!.n))));

export const purposeToggle = (p: string) => {
  const ids = em.filter((e) => e.p == p).map((e) => e.i);
  const n = ids.filter((id) => S._sel.has(id)).length;
  return toggle(bundle().pu[p]![0], fixed(p) || (n > 0 && n == ids.length), fixed(p), n > 0 && n < ids.length, (v) => {
    ids.forEach((id) => (v ? S._sel.add(id) : S._sel.delete(id)));
    render(S.layer);
  });
};

export const buttonsFor = (list: string[]) => {
  const order = [...list];
  if (c.de && order.includes('accept') && !order.includes('decline')) order.splice(order.indexOf('accept') + 1, 0, 'decline');
  return order.map((b) =>
    b == 'accept'
      ? btn('a', t(T.widgetFullConsentButtonText), acceptAll)
      : b == 'decline'
        ? btn('d', t(T.widgetDeclineButtonText), declineAll)
        : btn(th.purposesInMain ? 'k' : 's', t(T.widgetSettingsButtonText), () => render(2)),
  );
};

export const dialog = (title: string, modal: boolean, ...body: (Node | string | false | undefined)[]) =>
  h(
    'div',
    { class: `r ${th.position}`, lang: S.lang.replace('_', '-') },
    modal && th.blocking && h('div', { class: 'o' }),
    h(
      'div',
      { class: 'b', role: 'dialog', 'aria-modal': modal && 'true', 'aria-labelledby': 'ccm-t' },
      __PLACET_OPT__ && th.logo && h('img', { class: 'i', src: `data:image;base64,${th.logo}`, alt: '' }),
      th.close && S.layer == 1 && btn('x', '×', S.decided ? closeLayer : dismiss, t(T.detailsCloseButtonText)),
      h('h2', { id: 'ccm-t' }, title),
      ...body,
      c.ft && h('p', { class: 'w' }, link(c.ft, c.fu, true) || c.ft),
    ),
  );

export const views: Record<number, () => HTMLElement> = {
  1: () =>
    dialog(
      t(T.widgetTitle),
      th.blocking,
      h('p', {}, t(T.widgetIntroText)),
      th.purposesInMain && h('div', {}, ...purposes().map(purposeToggle), btn('a', t(T.categoriesSaveButtonText), save)),
      h('div', { class: 'n' }, ...buttonsFor(th.buttons)),
      legalLinks(),
    ),
  2: () =>
    dialog(
      t(T.categoriesTitle),
      true,
      ...purposes().map((p) => h('div', { class: 'p' }, purposeToggle(p), h('p', {}, bundle().pu[p]![1]))),
      __PLACET_OPT__ && th.checkAll && h('p', {}, btn('s', t(T.checkAllButtonText), () => ((S._sel = new Set(em.map((e) => e.i))), render(2))), btn('s', t(T.uncheckAllButtonText), () => ((S._sel = new Set()), render(2)))),
      h('div', { class: 'n' },
        btn('a', t(T.categoriesSaveButtonText), save),
        th.settingsAcceptAll && btn('a', t(T.categoriesFullConsentButtonText), acceptAll),
        btn('s', t(T.categoriesCancelButtonText), back),
        btn('s', t(T.questionMarkButtonText), () => render(3)),
      ),
      th.footer && legalLinks(),
    ),
  3: () =>
    dialog(
      t(T.detailsTitle),
      true,
      ...purposes().map((p) =>
        h('section', {}, h('h3', {}, bundle().pu[p]![0]),
          ...em.filter((e) => e.p == p).map((e) => {
            const x = texts(e);
            const row = (k: T, v: string | Node) => v && h('div', {}, h('dt', {}, t(k)), h('dd', {}, v));
            return h('details', {},
              h('summary', {}, x[0]),
              toggle(x[0], fixed(p) || S._sel.has(e.i), fixed(p), false, (v) => (v ? S._sel.add(e.i) : S._sel.delete(e.i))),
              h('dl', {},
                row(T.embeddingVendorLabel, x[1]),
                row(T.embeddingDescriptionLabel, x[2]),
                row(T.embeddingPrivacyPolicyUrlLabel, link(x[3], x[3], true)),
                row(T.embeddingLifetimeLabel, x[12]),
                row(T.embeddingWhichDataIsCollectedLabel, x[4]),
                row(T.embeddingPurposeOfDataCollectionLabel, x[5]),
                row(T.embeddingLegalBasisLabel, x[6]),
                row(T.embeddingPlaceOfProcessingLabel, x[7]),
              ),
              x[11].length > 0 && assetTable(x[11]),
            );
          }),
        ),
      ),
      h('p', { class: 'u' }, 'ucid: ', h('code', {}, S._stored?.ucid || '–')),
      h('div', { class: 'n' }, btn('a', t(T.categoriesSaveButtonText), save), btn('s', t(T.detailsCloseButtonText), () => render(2))),
    ),
};

// A legal text shown inside the widget (display mode `direct`; the default, `link`, is a link): in the options
// variant only, which the service serves to a domain that shows one so (docs/widget.md, "Size and speed").
if (__PLACET_OPT__)
  views[4] = () => {
    const body = h('div');
    body.innerHTML = t(S._legal! + 2); // documented as HTML: the only text not escaped
    return dialog(t(S._legal!), true, body, h('div', { class: 'n' }, btn('s', t(T.detailsCloseButtonText), () => render(S._legalFrom!))));
  };

// Drawn, not a glyph: a symbol such as ⚙ is in no text font, and the system-wide font fallback search it
// triggers cost more than the rest of closing the banner (a long task at 4× CPU throttling).
export const icon = () => {
  if (!th.icon) return;
  const image = __PLACET_OPT__ && th.iconImage ? h('img', { src: `data:image;base64,${th.iconImage}`, alt: '' }) : '';
  const b = btn('c', image, () => openLayer(th.iconTarget == 'main' ? 1 : 2), t(T.changeConsentText));
  if (!image) b.innerHTML = ICON;
  return b;
};

export function render(n: number) {
  const wasOpen = S.layer > 0;
  S.layer = n;
  S._panel.replaceChildren(...(n ? [views[n]!()] : []));
  // The icon follows after the next paint: closing the banner on a click then costs its frame no more than the
  // removal (issue #15: click → next paint within one frame at 4× CPU).
  if (!n && !c.bl && (S.decided || implicit() || gpc || dnt)) afterPaint(() => S.layer || S._panel.replaceChildren(icon() || ''));
  if (n && (n > 1 || th.blocking || wasOpen)) focusFirst();
}

export function focusFirst() {
  S._panel.querySelector<HTMLElement>(FOCUSABLE)?.focus();
}

export function openLayer(n: number) {
  if (c.bl) return;
  if (!S.layer) S._returnTo = doc.activeElement;
  S._sel = new Set(S.acc);
  render(n);
}

export function closeLayer() {
  if (!S.layer) return;
  render(0);
  // Focus goes back where it was; the body needs no focus() call (and the forced layout it costs).
  if (S._returnTo != doc.body) (S._returnTo as HTMLElement | null)?.focus?.();
  dispatch('ccm19WidgetClosed');
}

/**
 * The theme's close button without a decision (reference model: "closes the banner until the tab is closed;
 * only necessary embeddings load"): nothing is stored or recorded, and the tab's later pages open without
 * the banner (sessionStorage); a new tab asks again.
 */
export function dismiss() {
  try {
    sessionStorage.setItem(DISMISSED + c.p, '1');
  } catch {
    // Storage refused (sandboxed frame, privacy mode): the banner is closed for this page only.
  }
  closeLayer();
}

export const DISMISSED = 'ccm-x';

export function back() {
  if (S.decided) closeLayer();
  else render(1);
}

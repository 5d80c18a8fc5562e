/**
 * The TCF first layer, drawn at once (docs/tcf.md, "Script → banner"): the server inlines this small part right
 * after the widget and the IAB libraries (index.ts) after the first paint, so the banner does not wait for them.
 * It draws from the facts inlined in app.js (T.f) and needs no request. Its buttons act through index.ts; a click
 * before that has run waits for it.
 */
import { B, COOKIE, own, t, tt, type Button } from './bridge.js';
import { T as TF } from '../text-fields.js';

const { c, S, h, btn, dialog } = B;
const T = c.tcf;
const press = (button: Button) => (ev?: Event) => (B.act ? B.act(ev, button) : (B.q = [ev, button]));
const list = (items: string[]) => h('ul', {}, ...items.map((n) => h('li', {}, n)));

/**
 * First layer (TCF policy: purposes or the stacks that summarise them, special purposes and features, special
 * features, number of vendors, legitimate interest).
 */
function first(): HTMLElement {
  const f = T.f[S.lang] ?? T.f[c.dl] ?? Object.values(T.f)[0]!;
  return dialog(
    t(TF.widgetTitle),
    c.th.blocking,
    h('p', {}, t(TF.widgetIntroText)),
    h('p', { class: 'tcf-intro' }, tt('tcfVendorIntroText')),
    h('h3', {}, tt('tcfPurposeLabel')),
    f.s.length > 0 && h('ul', { class: 'tcf-stacks' }, ...f.s.map(([name, text]) => h('li', {}, h('strong', {}, name), h('p', {}, text)))),
    f.p.length > 0 && list(f.p),
    f.sp.length > 0 && h('h3', {}, tt('tcfSpecialPurposeLabel')),
    f.sp.length > 0 && list(f.sp),
    f.fe.length > 0 && h('h3', {}, tt('tcfFeaturesLabel')),
    f.fe.length > 0 && list(f.fe),
    f.sf.length > 0 && h('h3', {}, `${tt('tcfSpecialFeaturesLabel')} (${tt('tcfOptedInRemark')})`),
    f.sf.length > 0 && list(f.sf),
    h('p', { class: 'tcf-count' }, `${tt('tcfThirdPartiesLabel')}: `, h('strong', {}, String(T.vs.length))),
    h('div', { class: 'n' },
      btn('a', t(TF.widgetFullConsentButtonText) || own(3), press('acceptAll')),
      btn('d', t(TF.widgetDeclineButtonText), press('declineAll')),
      btn('s', t(TF.widgetSettingsButtonText), press('more')),
    ),
    B.legalLinks(),
  );
}

B.views[1] = first;
// Without a TC string there is nothing to check: the layer opens now. With one, index.ts decodes it first.
if (!c.oe && B.ask && !document.cookie.split('; ').some((x) => x.startsWith(`${COOKIE}=`))) {
  B.shown = true;
  B.render(1);
}

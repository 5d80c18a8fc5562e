/** Building blocks of the widget's UI: elements, buttons, switches and tables, built detached. */
import { c, doc, em, NECESSARY, th } from '../state.js';
import { t } from '../i18n.js';
import { T } from '../text-fields.js';

// The widget's own UI is built in detached elements: it appends with the unpatched method.
export const nativeAppend = Element.prototype.append;

export const h = (tag: string, attrs: Record<string, unknown> = {}, ...kids: (Node | string | false | undefined)[]) => {
  const el = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v as EventListener);
    else if (v !== false && v != null) el.setAttribute(k, v === true ? '' : String(v));
  }
  nativeAppend.apply(el, kids.filter(Boolean) as (Node | string)[]);
  return el;
};

export const vars = Object.entries(th.colors).map(([k, v]) => `--${k}:${v}`).join(';');

export const trusted = (ev: Event) => !th.mp || ev.isTrusted;

export const btn = (cls: string, label: string | Node, on: (ev: Event) => void, ariaLabel?: string) =>
  h('button', { type: 'button', class: cls, 'aria-label': ariaLabel, onclick: on }, label);

export const link = (label: string, url: string, blank: boolean) =>
  url && h('a', { href: url, target: blank && '_blank', rel: blank && 'noopener' }, label);

export const toggle = (label: string, on: boolean, disabled: boolean, mixed: boolean, change: (v: boolean) => void) => {
  const input = h('input', {
    type: 'checkbox', role: th.switchType == 'switch' && 'switch', checked: on, disabled,
    onchange: (ev: Event) => change((ev.target as HTMLInputElement).checked),
  }) as HTMLInputElement;
  input.indeterminate = mixed;
  return h('label', { class: `g ${th.switchType}` }, input, h('span', {}, label));
};

export const assetTable = (rows: [string, string, string][]) =>
  h('table', {},
    h('tr', {}, ...[T.embeddingAssetNameLabel, T.embeddingAssetLifetimeLabel, T.embeddingAssetDescriptionLabel].map((k) => h('th', {}, t(k)))),
    ...rows.map((r) => h('tr', {}, ...r.map((v) => h('td', {}, v)))),
  );

export const purposes = () => c.pu.filter((p) => p == NECESSARY || em.some((e) => e.p == p));

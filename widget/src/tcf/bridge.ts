/**
 * What the widget hands the TCF code (widget/src/index.ts puts it under Symbol.for('placet.tcf')), and the text
 * helpers both TCF parts use: first.ts (the first layer, drawn at once) and index.ts (the IAB libraries, after paint).
 */
import type { TcfConfig, WidgetConfig } from '../types.js';
import type { T } from '../text-fields.js';

export type Kid = Node | string | false | undefined;
export type Button = 'acceptAll' | 'declineAll' | 'save' | 'more';
export interface Bridge {
  c: WidgetConfig & { tcf: TcfConfig };
  S: { lang: string; decided: boolean; acc: Set<string>; layer: number; tc?: string | undefined; ac?: string | undefined };
  h: (tag: string, attrs?: Record<string, unknown>, ...kids: Kid[]) => HTMLElement;
  btn: (cls: string, label: string, on: (ev: Event) => void) => HTMLElement;
  toggle: (label: string, on: boolean, disabled: boolean, mixed: boolean, change: (v: boolean) => void) => HTMLElement;
  dialog: (title: string, modal: boolean, ...body: Kid[]) => HTMLElement;
  legalLinks: () => HTMLElement;
  views: Record<number, () => HTMLElement>;
  render: (n: number) => void;
  decide: (ids: Iterable<string>, button: string) => void;
  /** The widget would show its banner (not on a legal page, not dismissed in this tab). */
  ask: boolean;
  /** Set by first.ts: the first layer is open, drawn before the IAB libraries ran. */
  shown?: boolean;
  /** Set by index.ts: what a button of the first layer does; until then a click waits in `q`. */
  act?: (ev: Event | undefined, button: Button) => void;
  q?: [Event | undefined, Button];
}

export const B = (window as unknown as Record<symbol, Bridge>)[Symbol.for('placet.tcf')]!;
export const COOKIE = 'euconsent-v2';

/** Texts the Locale has no field for (docs/tcf.md): English and German, English otherwise. */
const OWN: Record<string, string[]> = {
  en: ['Consent', 'Legitimate interest', 'Additional ad providers (Google Additional Consent)', 'Accept all', 'Data categories', 'Cookie lifetime', 'Data retention', 'Ad provider'],
  de: ['Einwilligung', 'Berechtigtes Interesse', 'Weitere Werbeanbieter (Google Additional Consent)', 'Alle akzeptieren', 'Datenkategorien', 'Cookie-Laufzeit', 'Speicherdauer', 'Werbeanbieter'],
};
export const own = (i: number) => (OWN[B.S.lang.slice(0, 2)] ?? OWN.en!)[i]!;
export const t = (k: T) => B.c.loc[B.S.lang]?.t[k] || B.c.loc[B.c.dl]!.t[k] || '';
export const tt = (k: string) => B.c.tcf.t?.[B.S.lang]?.[k] ?? B.c.tcf.t?.[B.c.dl]?.[k] ?? '';

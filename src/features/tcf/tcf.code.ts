import fs from 'node:fs';
import { createRequire } from 'node:module';
import { TCF_TOKEN, buildTcfChunk } from '../../../widget/build.js';
import type { TcfConfig, WidgetConfig } from '../../../widget/src/types.js';

/** The IAB's __tcfapi stub (@iabtechlabtcf/stub), first in app.js of tcfEnabled domains. */
export const TCF_STUB = fs.readFileSync(createRequire(import.meta.url).resolve('@iabtechlabtcf/stub'), 'utf8').trim();

let chunk: Promise<string> | undefined;
let prefix: Promise<string> | undefined;

/** The TCF chunk (widget/src/tcf/index.ts), bundled once per process with the IAB libraries. */
export const tcfChunkCode = (): Promise<string> => (chunk ??= buildTcfChunk('index'));

/**
 * What goes before the widget on a tcfEnabled domain: the IAB stub (synchronously, before anything else),
 * then the prefix that starts the domain's GVL fetch and handles URL macros (widget/src/tcf/prefix.ts).
 */
export async function tcfPrefix(config: Pick<WidgetConfig, 'em'>, tcf: TcfConfig): Promise<string> {
  prefix ??= buildTcfChunk('prefix');
  const linked = config.em.filter((e) => tcf.el[e.i]).flatMap((e) => [...e.sm, ...e.fm]);
  const settings = JSON.stringify({ g: tcf.g, mu: tcf.mu, m: linked });
  return `${TCF_STUB}\n${(await prefix).replace(TCF_TOKEN, () => settings)}\n`;
}

let firstLayer: Promise<string> | undefined;

/**
 * What goes after the widget on a tcfEnabled domain (docs/tcf.md, "Script → banner"): the TCF code itself,
 * inlined rather than loaded, so the first layer needs no request after app.js. First the small part that draws
 * the first layer (widget/src/tcf/first.ts), then the chunk with the IAB libraries. When the first layer is open,
 * the chunk runs only after the banner has been painted: after DOMContentLoaded (when the widget puts its host into
 * the page, the snippet being in <head>), then a frame, then a task; the timer covers a hidden tab, which paints no
 * frames. Until then the IAB stub queues `__tcfapi` calls. Without a first layer (a returning visitor's TC string
 * to check) nothing is painted, and the chunk runs at once so vendors hear `tcloaded` as early as possible. All of
 * it only when this copy of the widget started and handed over its bridge, and only once: a page that includes
 * the snippet twice gets one CMP API, as it gets one widget.
 */
export async function tcfSuffix(): Promise<string> {
  firstLayer ??= buildTcfChunk('first');
  return `\n;(function(b){if(b&&!b.on){b.on=1;${await firstLayer};var d=0,go=function(){if(!d){d=1;${await tcfChunkCode()}}};` +
    'if(!b.shown)return go();var later=function(){requestAnimationFrame(function(){setTimeout(go)});setTimeout(go,250)};' +
    'document.readyState==="loading"?document.addEventListener("DOMContentLoaded",later):later()}})(window[Symbol.for("placet.tcf")]);\n';
}

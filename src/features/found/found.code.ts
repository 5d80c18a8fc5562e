import { buildFoundChunk } from '../../../widget/build.js';
import { compressed, type Encoding } from '../widget/script-chunk.js';
import type { FoundSettings } from '../../../widget/src/found/types.js';

let built: Promise<Record<Encoding, Buffer>> | undefined;

/** The reporter chunk (widget/src/found/index.ts), bundled and compressed once per process. */
export const foundChunk = () =>
  (built ??= buildFoundChunk().then((code) => compressed(code)));

/**
 * What goes before the widget on a domain that records found items: a few lines that load the reporter chunk
 * only when this browser has not reported for the domain within the sample window, so on most page views
 * nothing is fetched at all. It runs before the widget's hooks exist, so blockNewScripts never blocks Placet's
 * own chunk. Every failure (no storage, a sandbox) means no report, never an error on the page.
 */
export function foundPrefix(settings: FoundSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return (
    `(()=>{try{const F=${json},l=localStorage.getItem("placet_found_"+F.d);` +
    `if(l&&Date.now()-+l<F.w)return;window[Symbol.for("placet.found")]=F;` +
    `const s=document.createElement("script");s.src=F.js;s.async=true;(document.head||document.documentElement).append(s)}catch(e){}})();\n`
  );
}

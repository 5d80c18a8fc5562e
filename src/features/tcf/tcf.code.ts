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
 * then the prefix that loads the chunk and handles URL macros (widget/src/tcf/prefix.ts).
 */
export async function tcfPrefix(config: Pick<WidgetConfig, 'em'>, tcf: TcfConfig): Promise<string> {
  prefix ??= buildTcfChunk('prefix');
  const linked = config.em.filter((e) => tcf.el[e.i]).flatMap((e) => [...e.sm, ...e.fm]);
  const settings = JSON.stringify({ js: tcf.js, g: tcf.g, mu: tcf.mu, m: linked });
  return `${TCF_STUB}\n${(await prefix).replace(TCF_TOKEN, () => settings)}\n`;
}

import type { FastifyReply } from 'fastify';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'identity' | 'gzip' | 'br';

/** The encoding of an answer: brotli where the client takes it, else gzip, else none. */
export function pickEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  if (/\bbr\b/.test(header)) return 'br';
  if (/\bgzip\b/.test(header)) return 'gzip';
  return 'identity';
}

/** A body in every encoding, compressed once: static chunks at brotli 11, per-domain answers at a cheaper level. */
export function compressed(body: string | Buffer, brotliQuality = 11): Record<Encoding, Buffer> {
  const identity = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** Sends one of the widget's script chunks (TCF, found-items reporter): same for every site, cached an hour. */
export function sendScriptChunk(reply: FastifyReply, acceptEncoding: string | undefined, chunk: Record<Encoding, Buffer>) {
  const encoding = pickEncoding(acceptEncoding);
  reply.headers({
    'content-type': 'application/javascript; charset=utf-8',
    'cache-control': 'public, max-age=3600',
    vary: 'Accept-Encoding',
    'access-control-allow-origin': '*',
  });
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(chunk[encoding]);
}

import http from 'node:http';
import https from 'node:https';
import type { TargetGuard } from '../onboarding/target-guard.js';

export interface UpstreamAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface UpstreamOptions {
  readonly guard: TargetGuard;
  readonly timeoutMs: number;
  /** Larger answers are refused (by Content-Length before reading, or once this many bytes arrived). */
  readonly maxBytes: number;
  readonly accept: string;
}

/** A failure the caller remembers as "no image" (`reason` is logged and given in the error's details). */
export class UpstreamError extends Error {
  constructor(readonly reason: 'forbidden' | 'unreachable' | 'timeout' | 'too-large' | 'status' | 'invalid') {
    super(reason);
    this.name = 'UpstreamError';
  }
}

/**
 * One GET to the video host, through the scanner's SSRF guard: every connection goes only to addresses the
 * guard checked at connect time (so DNS rebinding is covered), IP literals are checked before connecting,
 * and redirects are not followed (the image and oEmbed addresses answer directly; a 3xx is a failure). The
 * whole exchange, body included, must finish within `timeoutMs`, so a host that trickles bytes cannot hold
 * a request (or the shared fetch every visitor of that video waits for) open.
 */
export async function getUpstream(url: URL, options: UpstreamOptions): Promise<UpstreamAnswer> {
  try {
    await options.guard.resolve(url.hostname);
  } catch (err) {
    throw new UpstreamError(isForbidden(err) ? 'forbidden' : 'unreachable');
  }
  const client = url.protocol === 'https:' ? https : http;
  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        headers: { accept: options.accept, 'user-agent': 'Placet-VideoPreviews/1' },
        lookup: options.guard.lookup,
        agent: false,
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length'] ?? 0);
        if (status !== 200) {
          res.destroy();
          return reject(new UpstreamError('status'));
        }
        if (declared > options.maxBytes) {
          res.destroy();
          return reject(new UpstreamError('too-large'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(new UpstreamError('too-large'));
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
        res.on('error', () => reject(new UpstreamError(signal.aborted ? 'timeout' : 'unreachable')));
        // Closed before its end (aborted by the time limit, or the host hung up): settled here, whichever event
        // Node emits, so no caller (nor the shared fetch others wait for) can hang. A no-op after `end`.
        res.on('close', () => reject(new UpstreamError(signal.aborted ? 'timeout' : 'unreachable')));
      },
    );
    req.on('error', (err) => reject(isForbidden(err) ? new UpstreamError('forbidden') : new UpstreamError(signal.aborted ? 'timeout' : 'unreachable')));
    req.end();
  });
}

const isForbidden = (err: unknown) => err instanceof Error && 'code' in err && err.code === 'SCAN_TARGET_FORBIDDEN';

/** The image types served, recognised by their first bytes as well as by the declared type. */
const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/**
 * The content type to serve the answer with, or undefined when it is not a JPEG, PNG or WebP image whose
 * bytes agree with its declared type: Placet serves these bytes from its own origin, so it must never pass
 * on HTML, SVG (which can carry script) or anything else the host sent.
 */
export function imageType(answer: UpstreamAnswer): string | undefined {
  const type = answer.contentType.split(';')[0]!.trim().toLowerCase();
  const matches = SIGNATURES[type];
  return matches && matches(answer.body) ? type : undefined;
}

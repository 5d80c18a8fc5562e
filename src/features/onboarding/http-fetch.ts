import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { TargetGuard } from './target-guard.js';

export interface FetchedHop {
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  setCookies: string[];
}

export interface FetchedPage extends FetchedHop {
  /** Every response on the way, redirects first, this page last. */
  hops: FetchedHop[];
  contentType: string;
  body: string;
}

export interface FetchOptions {
  readonly guard: TargetGuard;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly userAgent: string;
  readonly maxBytes?: number;
  readonly maxRedirects?: number;
}

const codeError = (message: string, code: string) => Object.assign(new Error(message), { code });

/**
 * GET with redirects followed by hand (`redirect: 'manual'` semantics): every hop is a new connection
 * through the guard's `lookup`, and IP literals are checked before connecting, so a redirect to a
 * private address is refused like a direct request. Bodies are decompressed and cut at `maxBytes`.
 */
export async function fetchPage(start: URL, options: FetchOptions): Promise<FetchedPage> {
  const hops: FetchedHop[] = [];
  let url = start;
  for (let hop = 0; ; hop++) {
    const { head, body } = await get(url, options);
    hops.push(head);
    const location = head.headers.location;
    if (head.status >= 300 && head.status < 400 && location) {
      body.destroy();
      if (hop >= (options.maxRedirects ?? 10)) throw codeError(`more than ${options.maxRedirects ?? 10} redirects`, 'TOO_MANY_REDIRECTS');
      try {
        url = new URL(location, url);
      } catch {
        throw codeError(`invalid redirect to ${location}`, 'BAD_REDIRECT');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw codeError(`redirect to ${url.protocol}`, 'BAD_REDIRECT');
      continue;
    }
    const contentType = String(head.headers['content-type'] ?? '');
    const text = await readText(body, head.headers, contentType, options.maxBytes ?? 2_000_000);
    return { ...head, hops, contentType, body: text };
  }
}

async function get(url: URL, options: FetchOptions): Promise<{ head: FetchedHop; body: Readable }> {
  await options.guard.resolve(url.hostname); // IP literals never reach `lookup`
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en,de;q=0.8',
        },
        lookup: options.guard.lookup,
        signal: options.signal,
        timeout: options.timeoutMs,
        agent: false,
      },
      (res) => {
        const setCookie = res.headers['set-cookie'];
        resolve({
          head: { url: url.href, status: res.statusCode ?? 0, headers: res.headers, setCookies: setCookie ?? [] },
          body: res,
        });
      },
    );
    req.on('timeout', () => req.destroy(codeError(`no answer from ${url.host} within ${options.timeoutMs} ms`, 'ETIMEDOUT')));
    req.on('error', reject);
    req.end();
  });
}

async function readText(
  raw: http.IncomingMessage | Readable,
  headers: http.IncomingHttpHeaders,
  contentType: string,
  maxBytes: number,
): Promise<string> {
  const encoding = String(headers['content-encoding'] ?? '').toLowerCase();
  const stream: Readable =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? raw.pipe(zlib.createGunzip())
      : encoding === 'deflate'
        ? raw.pipe(zlib.createInflate())
        : encoding === 'br'
          ? raw.pipe(zlib.createBrotliDecompress())
          : raw;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= maxBytes) break;
    }
  } finally {
    raw.destroy();
  }
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(Buffer.concat(chunks));
  } catch {
    return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  }
}

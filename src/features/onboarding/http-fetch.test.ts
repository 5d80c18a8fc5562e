import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type LocalServer } from '../../../test/fixtures/onboarding/test-site.js';
import { fetchPage, type FetchOptions } from './http-fetch.js';
import { ForbiddenTargetError, TargetGuard } from './target-guard.js';

describe('fetchPage', () => {
  let server: LocalServer;
  let base: string;
  const options = (guard = new TargetGuard({ allowPrivateNetworks: true })): FetchOptions => ({
    guard,
    signal: new AbortController().signal,
    timeoutMs: 3000,
    userAgent: 'test',
  });
  beforeAll(async () => {
    server = await serve((req, res) => {
      switch (req.url) {
        case '/gzip':
          return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync('<p>zipped</p>'));
        case '/latin1':
          return void res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(Buffer.from('<p>Straße</p>', 'latin1'));
        case '/hop':
          return void res.writeHead(302, { location: '/gzip', 'set-cookie': 'hop=1' }).end();
        case '/loop':
          return void res.writeHead(302, { location: '/loop' }).end();
        case '/to-private':
          return void res.writeHead(302, { location: 'http://192.168.0.1/' }).end();
        default:
          return void res.writeHead(404).end();
      }
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => server?.close());

  it('decompresses and decodes by the declared charset', async () => {
    expect((await fetchPage(new URL(`${base}/gzip`), options())).body).toBe('<p>zipped</p>');
    expect((await fetchPage(new URL(`${base}/latin1`), options())).body).toBe('<p>Straße</p>');
  });

  it('follows redirects by hand and keeps every hop with its Set-Cookie headers', async () => {
    const page = await fetchPage(new URL(`${base}/hop`), options());
    expect(page.url).toBe(`${base}/gzip`);
    expect(page.hops.map((h) => [h.status, h.setCookies])).toEqual([[302, ['hop=1']], [200, []]]);
  });

  it('gives up on redirect loops', async () => {
    await expect(fetchPage(new URL(`${base}/loop`), options())).rejects.toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
  });

  it('checks every hop: a redirect to a private address is refused', async () => {
    const guard = new TargetGuard({ allowPrivateNetworks: false, trustedHosts: ['127.0.0.1'] });
    await expect(fetchPage(new URL(`${base}/to-private`), options(guard))).rejects.toBeInstanceOf(ForbiddenTargetError);
  });
});

import http from 'node:http';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { reasonOf, type FailureReason } from './scan-errors.js';
import { ForbiddenTargetError, bareHost, type TargetGuard } from './target-guard.js';

/** Response header by which the proxy tells the scanner why it answered instead of the website. */
export const PROXY_ERROR_HEADER = 'x-placet-proxy-error';
export type ProxyFailure = FailureReason | 'FORBIDDEN';

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);
const IDLE_MS = 30_000;

/**
 * The only way out for the scanner's Chromium: every request of every page (navigations, redirects,
 * subresources, iframes, WebSockets, service workers) goes through this local forward proxy, which
 * resolves the target itself through the TargetGuard and connects to the checked address only.
 * `context.route` cannot do this: Playwright does not call it for redirect targets. It listens on
 * 127.0.0.1 only and lives as long as the scanner.
 */
export class EgressProxy {
  private server: http.Server | undefined;
  private url: Promise<string> | undefined;
  private readonly tunnels = new Set<net.Socket>();
  private readonly failures = new Map<string, ProxyFailure>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  constructor(
    private readonly guard: TargetGuard,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** `http://127.0.0.1:<port>`, starting the proxy on first use. */
  start(): Promise<string> {
    this.url ??= new Promise<string>((resolve, reject) => {
      const server = http.createServer((req, res) => void this.forward(req, res));
      server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => void this.tunnel(req, socket, head));
      server.on('upgrade', (_req, socket: net.Socket) => socket.destroy());
      server.on('clientError', (_err, socket) => socket.destroy());
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.server = server;
        resolve(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
      });
    });
    return this.url;
  }

  /** Why the last connection to `host:port` failed, if it did (CONNECT failures reach Chromium without a reason). */
  failureFor(hostPort: string): ProxyFailure | undefined {
    return this.failures.get(hostPort.toLowerCase());
  }

  async close(): Promise<void> {
    for (const socket of this.tunnels) socket.destroy();
    this.agent.destroy();
    const server = this.server;
    this.server = undefined;
    this.url = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private remember(hostPort: string, failure: ProxyFailure | undefined): void {
    const key = hostPort.toLowerCase();
    this.failures.delete(key);
    if (failure === undefined) return;
    if (this.failures.size >= 1000) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, failure);
  }

  private failureOf(err: unknown): ProxyFailure {
    return err instanceof ForbiddenTargetError ? 'FORBIDDEN' : reasonOf(err);
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const fail = (status: number, failure: ProxyFailure) => {
      if (!res.headersSent) res.writeHead(status, { [PROXY_ERROR_HEADER]: failure, 'content-type': 'text/plain' });
      res.end(`placet scanner proxy: ${failure}`);
    };
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      return fail(400, 'CONNECTION_FAILED');
    }
    const hostPort = `${bareHost(target.hostname)}:${target.port || 80}`;
    try {
      await this.guard.resolve(target.hostname); // IP literals never reach `lookup`
    } catch (err) {
      this.remember(hostPort, this.failureOf(err));
      return fail(err instanceof ForbiddenTargetError ? 403 : 502, this.failureOf(err));
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    const upstream = http.request(
      {
        host: bareHost(target.hostname),
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        lookup: this.guard.lookup,
        agent: this.agent,
        timeout: IDLE_MS,
      },
      (answer) => {
        this.remember(hostPort, undefined);
        const out: string[] = [];
        for (let i = 0; i < answer.rawHeaders.length; i += 2) {
          if (!HOP_BY_HOP.has(answer.rawHeaders[i]!.toLowerCase())) out.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('upstream idle'), { code: 'ETIMEDOUT' })));
    upstream.on('error', (err) => {
      this.remember(hostPort, this.failureOf(err));
      if (res.headersSent) res.destroy();
      else fail(err instanceof ForbiddenTargetError ? 403 : 502, this.failureOf(err));
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  private async tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): Promise<void> {
    this.tunnels.add(client);
    client.on('close', () => this.tunnels.delete(client));
    client.on('error', () => client.destroy());
    const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
    if (!match) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const [, host, port] = match as unknown as [string, string, string];
    const hostPort = `${bareHost(host)}:${port}`;
    const refuse = (err: unknown) => {
      const failure = this.failureOf(err);
      this.remember(hostPort, failure);
      if (failure !== 'FORBIDDEN') this.log.debug({ hostPort, failure }, 'scanner proxy: tunnel failed');
      client.end(`HTTP/1.1 ${failure === 'FORBIDDEN' ? '403 Forbidden' : '502 Bad Gateway'}\r\n${PROXY_ERROR_HEADER}: ${failure}\r\n\r\n`);
    };
    try {
      await this.guard.resolve(host);
    } catch (err) {
      return refuse(err);
    }
    const upstream = net.connect({ host: bareHost(host), port: Number(port), lookup: this.guard.lookup });
    this.tunnels.add(upstream);
    upstream.setTimeout(IDLE_MS, () => upstream.destroy());
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      this.remember(hostPort, undefined);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => (connected ? client.destroy() : refuse(err)));
    upstream.on('close', () => {
      this.tunnels.delete(upstream);
      if (connected) client.destroy();
    });
    client.on('close', () => upstream.destroy());
  }
}

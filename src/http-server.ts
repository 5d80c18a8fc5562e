import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Socket } from 'node:net';
import type { Config } from './config.js';
import { AppError, type ErrorCode } from './errors.js';

/**
 * The Node server under Fastify (its `serverFactory`): HTTP or HTTPS, with the limits that keep slow or
 * numerous clients from holding the process (README "Timeouts and limits"). Fastify applies none of its own
 * timeout options when a factory is given, so every one is set here.
 */
export function createNodeServer(config: Config, handler: http.RequestListener): http.Server {
  const { connections: limits } = config;
  const options: http.ServerOptions = {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node checks the two timeouts above; its default of 30 s would let a slow body live that long.
    connectionsCheckingInterval: 1000,
  };
  const limited = limitRequestsPerSocket(handler, limits.maxRequestsPerSocket);
  const server = config.tls
    ? (https.createServer({ ...options, ...readTlsFiles(config.tls) }, limited) as unknown as http.Server)
    : http.createServer(options, limited);
  server.maxConnections = limits.maxConnections ?? defaultMaxConnections();
  server.on('clientError', answerClientError);
  return server;
}

const SERVED = Symbol('requests served on this socket');

/**
 * MAX_REQUESTS_PER_SOCKET, done here rather than by Node's `server.maxRequestsPerSocket`: Node answers every
 * request past its limit that a client already sent on the connection (pipelined, or sent before it read the
 * last answer's `Connection: close`) with a bare 503 without a body, outside the JSON error envelope, and
 * keeps the connection open for more of them. Here the request that reaches the limit is answered normally
 * with `Connection: close`, after which Node ends the connection; a client sends anything further on a new one.
 */
export function limitRequestsPerSocket(handler: http.RequestListener, limit: number): http.RequestListener {
  if (limit <= 0) return handler;
  return (request, response) => {
    const socket = request.socket as Socket & { [SERVED]?: number };
    const served = (socket[SERVED] ?? 0) + 1;
    socket[SERVED] = served;
    if (served >= limit) response.setHeader('connection', 'close');
    handler(request, response);
  };
}

export function readTlsFiles(tls: NonNullable<Config['tls']>): { cert: Buffer; key: Buffer } {
  return { cert: fs.readFileSync(tls.certFile), key: fs.readFileSync(tls.keyFile) };
}

/**
 * Re-reads the certificate and key into a running HTTPS server; new handshakes use them, open connections
 * keep theirs. A pair that does not load (half-written, mismatched) leaves the old one in place and throws.
 */
export function reloadTls(server: http.Server, tls: NonNullable<Config['tls']>): void {
  (server as unknown as https.Server).setSecureContext(readTlsFiles(tls));
}

/**
 * Calls `onChange` (debounced) when the certificate or key file changes, including the rename that
 * certbot and Kubernetes secret mounts do. Watches the folders, since a renamed file ends a file watch.
 */
export function watchTlsFiles(tls: NonNullable<Config['tls']>, onChange: () => void): () => void {
  const names = new Set([path.basename(tls.certFile), path.basename(tls.keyFile)]);
  let timer: NodeJS.Timeout | undefined;
  const watchers = [...new Set([path.dirname(tls.certFile), path.dirname(tls.keyFile)])].map((dir) =>
    fs.watch(dir, { persistent: false }, (_event, name) => {
      // `..data` is the symlink a Kubernetes secret mount swaps.
      if (name !== null && !names.has(name) && !name.startsWith('..')) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, 200);
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}

/** Headroom below the open-file limit for the database, the scanner's browser and log files. */
const FD_HEADROOM = 128;

/** The soft open-file limit less some headroom (Linux: /proc/self/limits), else 1000. */
export function defaultMaxConnections(limitsText?: string): number {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = fs.readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return 1000;
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1];
  if (soft === undefined) return 1000;
  if (soft === 'unlimited') return 100_000;
  return Math.max(16, Math.min(100_000, Number(soft) - FD_HEADROOM));
}

const CLIENT_ERRORS: Record<string, [number, ErrorCode]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT'],
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE'],
};

/**
 * Errors Node answers before Fastify sees a request (a malformed request line, headers too large, a body
 * not received within REQUEST_TIMEOUT_MS): the same JSON envelope as every other error, then the connection
 * is closed.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'BAD_REQUEST'];
  const body = JSON.stringify(new AppError(code).toJSON());
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** How long a connection is kept reading (and discarding) after an answer that ends it early. */
const LINGER_MS = 2000;

/**
 * Lingering close for an answer sent before the request body was read (413): closing a socket that still
 * has unread data makes the kernel send a reset, which can destroy the answer before the client reads it.
 * Instead the answer is sent with `Connection: close`, our side is half-closed, and the rest of the body
 * is read and dropped until the client closes or LINGER_MS pass.
 */
export function lingerAfterAnswer(request: http.IncomingMessage): void {
  const socket = request.socket as Socket & { destroySoon?: () => void };
  request.resume();
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    socket.end();
    socket.resume();
    socket.once('end', () => socket.destroy());
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

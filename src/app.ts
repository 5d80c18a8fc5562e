import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Config } from './config.js';
import { connect, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { randomIds, systemClock, type Clock, type Deps, type Ids } from './deps.js';
import { AppError } from './errors.js';
import { createNodeServer, lingerAfterAnswer } from './http-server.js';
import { registerNulGuard, registerValidation, validationDetails } from './plugins/validation.js';
import { registerRoutes } from './routes.js';
import { registerMetrics } from './plugins/metrics.js';
import { DOCS_CSP, registerSecurityHeaders } from './plugins/security-headers.js';
import { ErrorBodySchema } from './schemas/common.js';

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface BuildOptions {
  readonly config: Config;
  /** An open database; by default one is opened from `config.database` and closed with the app. */
  readonly database?: DatabaseHandle;
  readonly clock?: Clock;
  readonly ids?: Ids;
  /** Outgoing requests of the server (the GVL); the global fetch by default. */
  readonly fetch?: typeof fetch;
  /** Where log lines go (tests capture them); stdout by default. */
  readonly logStream?: Writable;
  /** Run migrations while building (default true). */
  readonly migrate?: boolean;
}

/** Builds a ready app without listening (STYLE practice 3): server.ts listens, tests inject. */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  const database = options.database ?? connect(config.database);
  const app: App = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Keys travel in `?apiKey=` and in Authorization: neither may reach a log line.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    bodyLimit: config.bodyLimitBytes,
    serverFactory: (handler) => createNodeServer(config, handler),
    genReqId: requestIdOf,
    frameworkErrors: (err, request, reply) => {
      // A malformed percent-encoding (FST_ERR_BAD_URL) or an over-long path parameter, answered in the
      // envelope like every other error rather than in Fastify's own body.
      const appError = err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new AppError('URI_TOO_LONG')
        : new AppError('BAD_REQUEST', undefined, 'The request URL is not valid (malformed percent-encoding).');
      request.log.info({ code: err.code }, 'malformed request URL');
      void (reply as FastifyReply).status(appError.status).send(appError.toJSON());
    },
    return503OnClosing: true,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (options.migrate !== false) await migrateToLatest(database.db, database.schema);
  const deps: Deps = {
    config,
    db: database.db,
    engine: database.engine,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    log: app.log,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };

  // X-Request-Id is sent by the security headers' onSend hook (one hook on every answer, not two).
  registerSecurityHeaders(app, config);
  registerMetrics(app, config, database.db);
  registerValidation(app);
  registerNulGuard(app);
  app.addSchema(ErrorBodySchema);
  registerErrorHandlers(app);
  await registerOpenApi(app, config);
  await registerRoutes(app, deps);
  app.addHook('onClose', async () => {
    if (!options.database) await database.close();
  });
  return app;
}

/** Query parameters whose values never reach a log line, compared after percent-decoding (`%61piKey`). */
const SECRET_PARAMS = new Set(['apikey', 'api_key', 'key', 'token', 'password', 'secret']);

export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const parts = url.slice(query + 1).split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    return SECRET_PARAMS.has(decodeParamName(name).toLowerCase()) ? `${name}=[redacted]` : part;
  });
  return `${url.slice(0, query + 1)}${parts.join('&')}`;
}

/** Decodes a query parameter name as Fastify's query parser does (`+` is a space; bad escapes stay). */
function decodeParamName(name: string): string {
  const plain = name.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plain);
  } catch {
    return plain.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/**
 * Request ids unique across processes: a proxy's `X-Request-Id` when it is a plain token (so one id follows a
 * request through the proxy's and Placet's logs), else this process's random prefix and a counter (unique
 * without a random draw per request). Sent back in `X-Request-Id`.
 */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  if (typeof sent === 'string' && REQUEST_ID.test(sent)) return sent;
  requestCounter = requestCounter >= Number.MAX_SAFE_INTEGER ? 1 : requestCounter + 1;
  return `${REQUEST_ID_PREFIX}${requestCounter.toString(36)}`;
}

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const REQUEST_ID_PREFIX = `${randomBytes(6).toString('base64url')}-`;
let requestCounter = 0;

/**
 * 5xx answers that are not Placet's fault and need no stack trace: the scanned website is down or slow
 * (SCAN_FAILED). Logged at warn with their code and details.
 */
const EXPECTED_FAILURES: ReadonlySet<string> = new Set(['SCAN_FAILED']);

function registerErrorHandlers(app: App): void {
  app.setErrorHandler<FastifyError>((err, request, reply) => {
    const appError = toAppError(err);
    if (EXPECTED_FAILURES.has(appError.code)) {
      request.log.warn({ code: appError.code, details: appError.details }, appError.message);
    } else if (appError.status >= 500) request.log.error({ err }, 'request failed');
    if (appError.status === 413) {
      reply.header('connection', 'close');
      lingerAfterAnswer(request.raw);
    }
    return reply.status(appError.status).send(appError.toJSON());
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(new AppError('NOT_FOUND', undefined, `No route ${request.method} ${redactUrl(request.url)}.`).toJSON()),
  );
}

function toAppError(err: FastifyError): AppError {
  if (err instanceof AppError) return err;
  if (err.validation) {
    return new AppError('VALIDATION_FAILED', validationDetails(err.validation, err.validationContext));
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON', undefined, 'The request body is empty but Content-Type says JSON.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('INVALID_JSON');
  }
  if (err instanceof SyntaxError || err.statusCode === 400 && /JSON/i.test(err.message)) return new AppError('INVALID_JSON');
  if (err.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (err.statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (err.statusCode === 429) return new AppError('RATE_LIMITED');
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError('BAD_REQUEST', undefined, err.message);
  }
  return new AppError('INTERNAL');
}

async function registerOpenApi(app: App, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Placet',
        version: '0.1.0',
        description: 'Self-hostable consent management: Hosting API, Domain API, consent widget endpoints.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

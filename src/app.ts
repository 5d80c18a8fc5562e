import type { Writable } from 'node:stream';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Config } from './config.js';
import { connect, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { randomIds, systemClock, type Clock, type Deps, type Ids } from './deps.js';
import { AppError } from './errors.js';
import { registerNulGuard, registerValidation, validationDetails } from './plugins/validation.js';
import { registerRoutes } from './routes.js';
import { ErrorBodySchema } from './schemas/common.js';

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface BuildOptions {
  readonly config: Config;
  /** An open database; by default one is opened from `config.database` and closed with the app. */
  readonly database?: DatabaseHandle;
  readonly clock?: Clock;
  readonly ids?: Ids;
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
  };

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

export function redactUrl(url: string): string {
  return url.replace(/([?&]apiKey=)[^&#]*/gi, '$1[redacted]');
}

function registerErrorHandlers(app: App): void {
  app.setErrorHandler<FastifyError>((err, request, reply) => {
    const appError = toAppError(err);
    if (appError.status >= 500) request.log.error({ err }, 'request failed');
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
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

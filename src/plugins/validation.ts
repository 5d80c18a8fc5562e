import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { AppError, type ErrorDetail } from '../errors.js';
import { PROPERTY_NAMES } from '../schemas/common.js';

/**
 * Bodies are validated strictly: no type coercion (a `"true"` string is not a boolean) and no defaults
 * (a PUT merges, so a default would overwrite a stored value). Unknown and read-only properties are
 * dropped (`removeAdditional`), so a client may PUT back what it GETs. Path and query strings are
 * coerced, since they arrive as text. `allErrors` makes a 400 list every offending field.
 */
export function registerValidation(app: FastifyInstance): void {
  const common = { allErrors: true, strict: false, messages: true } as const;
  const bodyAjv = addFormats.default(
    new Ajv.default({ ...common, coerceTypes: false, useDefaults: false, removeAdditional: true }),
  );
  const textAjv = addFormats.default(
    new Ajv.default({ ...common, coerceTypes: 'array', useDefaults: true, removeAdditional: false }),
  );
  for (const ajv of [bodyAjv, textAjv]) addSchemaKeywords(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema),
  );
}

/** Keywords our schemas use beyond JSON Schema: `x-propertyNames` is `propertyNames` (see schemas/common.ts). */
export function addSchemaKeywords(ajv: Ajv.default): Ajv.default {
  return ajv.addKeyword({ keyword: PROPERTY_NAMES, macro: (names: unknown) => ({ propertyNames: names }) });
}

const PART_NAMES: Record<string, string> = { querystring: 'query', params: 'params', body: 'body', headers: 'headers' };

/** Turns Ajv's errors into one detail per offending field, all fields at once. */
export function validationDetails(
  errors: FastifySchemaValidationError[] | ErrorObject[],
  context: string | undefined,
): ErrorDetail[] {
  const prefix = PART_NAMES[context ?? 'body'] ?? 'body';
  const byField = new Map<string, string[]>();
  for (const e of errors as ErrorObject[]) {
    const pointer = (e.instancePath ?? '').split('/').slice(1).map(unescapePointer);
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
      pointer.push(params.missingProperty);
    }
    const field = [prefix, ...pointer].join('.');
    const list = byField.get(field) ?? [];
    list.push(describe(e));
    byField.set(field, list);
  }
  return [...byField].map(([field, messages]) => {
    // A nullable or union field reports one error per alternative plus the anyOf; say it once.
    const specific = messages.filter((m) => m !== 'must match a schema in anyOf');
    const unique = [...new Set(specific.length > 0 ? specific : messages)];
    return { field, message: unique.join(', or ') };
  });
}

function describe(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
      return (e.parentSchema as { description?: string } | undefined)?.description
        ? `must be ${(e.parentSchema as { description: string }).description}`
        : `must match the pattern ${String(params.pattern)}`;
    default:
      return e.message ?? 'is invalid';
  }
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * PostgreSQL cannot store U+0000 in text, and no field of ours has a use for it: refuse it anywhere in
 * the path, query or body with a 400 instead of letting the database fail with a 500.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.routeOptions.config.nulSafe === true) return done();
    const found =
      findNul(request.params, 'params') ?? findNul(request.query, 'query') ?? findNul(request.body, 'body');
    if (found === undefined) return done();
    done(new AppError('VALIDATION_FAILED', [{ field: found, message: 'must not contain the NUL character' }]));
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's schema and handler keep NUL from the database by themselves (every stored string is
     * pattern-checked or looked up), so the guard above can skip its walk on this hot route.
     */
    nulSafe?: boolean;
  }
}

/** Path of the first string or key holding NUL. Paths are built only on a hit: this runs on every request. */
function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null || depth > 32) return undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes('\0')) return `${path}.${key}`;
    const found = findNul((value as Record<string, unknown>)[key], '', depth + 1);
    if (found !== undefined) return `${path}.${key}${found}`;
  }
  return undefined;
}

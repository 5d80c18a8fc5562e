import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/** Bounded atoms every schema is built from (STYLE practice 7): no unbounded string or array. */
export const ShortIdSchema = Type.String({ pattern: '^[0-9a-f]{7}$', description: '7 lowercase hex characters' });

/** Path parameters are only length-bounded: an id of the wrong shape simply does not exist (404). */
export const PathIdSchema = Type.String({ minLength: 1, maxLength: 128 });

export const Text = (maxLength: number, options: Record<string, unknown> = {}) =>
  Type.String({ maxLength, ...options });

export const NonEmptyText = (maxLength: number, options: Record<string, unknown> = {}) =>
  Type.String({ minLength: 1, maxLength, ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A string enumeration as one JSON-Schema `enum`, so a 400 lists the allowed values. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const StringList = (maxItems: number, itemMaxLength: number, options: Record<string, unknown> = {}) =>
  Type.Array(Type.String({ minLength: 1, maxLength: itemMaxLength }), { maxItems, ...options });

export const IntList = (maxItems: number, options: Record<string, unknown> = {}) =>
  Type.Array(Type.Integer({ minimum: 0, maximum: 1_000_000 }), { maxItems, ...options });

/** `-1` means unlimited. */
export const QuotaSchema = Type.Integer({ minimum: -1, maximum: 2_147_483_647 });

export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(
        Type.Array(
          Type.Object({
            field: Type.Optional(Type.String()),
            message: Type.String(),
            flag: Type.Optional(Type.String({ description: 'FEATURE_NOT_AVAILABLE: the client feature flag the field needs' })),
          }),
        ),
      ),
    }),
  },
  { $id: 'ErrorBody', description: 'Every 4xx and 5xx answer has this body.' },
);

/** Shared error responses for route schemas. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorBody')]));

/** OpenAPI security of the Hosting API: `?apiKey=` or `Authorization: Bearer`. */
export const HOSTING_SECURITY: Array<Record<string, string[]>> = [{ apiKeyQuery: [] }, { bearer: [] }];

/** Locale names like `de_DE`, `en_US`, `fr`, `zh_Hans`. */
export const LOCALE_NAME_PATTERN = '^[a-z]{2,3}(_[A-Z][A-Za-z]{1,3})?$';
export const LocaleNameSchema = Type.String({
  pattern: LOCALE_NAME_PATTERN,
  maxLength: 16,
  description: 'a locale name such as de_DE, en_US or fr',
});

/**
 * JSON Schema's `propertyNames` under an OpenAPI 3.0 extension name: OpenAPI 3.0 schemas may not use
 * `propertyNames`, so the published document carries the rule as `x-propertyNames` (valid 3.0, and readable),
 * and the validator (src/plugins/validation.ts) expands it back to `propertyNames`.
 */
export const PROPERTY_NAMES = 'x-propertyNames';

/** An object keyed by locale names, bounded in size; a wrong key is a 400, not silently dropped. */
export function LocaleMap<T extends TSchema>(value: T, maxProperties = 50): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({
    type: 'object',
    [PROPERTY_NAMES]: { pattern: LOCALE_NAME_PATTERN, maxLength: 16 },
    maxProperties,
    additionalProperties: value,
    description: 'keyed by locale name (de_DE, en_US, fr, …)',
  });
}

/** An http(s) URL, or the empty string for "none". */
export const UrlOrEmpty = (maxLength = 2000) =>
  Type.String({ maxLength, pattern: '^(https?://[^\\s]+)?$', description: 'an http(s) URL or empty' });

/**
 * The OpenAPI document's operations and a value each request body schema accepts, found without a schema faker:
 * enough for tests that must get past validation (the fuzzer, the tenant-isolation sweep) to reach the handlers.
 */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  additionalProperties?: boolean | Schema;
};
export type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema?: Schema };
export type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: Schema }> } };

const CANDIDATES = ['abc1234', 'en', 'de_DE', 'en_US', 'a717ff5', 'a', 'ab'.repeat(24), '0'.repeat(64), 'https://example.com/', 'example.com', '#ffffff', 'x1'];

export function resolve(doc: Record<string, unknown>, s: Schema | undefined): Schema {
  if (!s) return {};
  if (s.$ref) {
    const target = s.$ref.replace(/^#\//, '').split('/').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], doc);
    return resolve(doc, target as Schema);
  }
  return s;
}

/** A value the schema accepts, where one is easy to find; undefined when not (a pattern no candidate matches). */
export function sample(doc: Record<string, unknown>, raw: Schema | undefined, depth = 0): unknown {
  const s = resolve(doc, raw);
  if (depth > 6) return undefined;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) {
    for (const a of alt) {
      const v = sample(doc, a, depth + 1);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  if (s.allOf) return Object.assign({}, ...s.allOf.map((a) => sample(doc, a, depth + 1) ?? {}));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(s.properties ?? {})) {
        const v = sample(doc, p, depth + 1);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'array': {
      const v = sample(doc, s.items, depth + 1);
      return s.minItems && v !== undefined ? Array.from({ length: s.minItems }, () => v) : [];
    }
    case 'integer':
    case 'number':
      return s.minimum ?? (s.maximum !== undefined ? Math.min(0, s.maximum) : 1);
    case 'boolean':
      return true;
    case 'string': {
      if (s.format === 'email') return 'fuzz@example.com';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
      if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
      const fits = (c: string) =>
        (!s.pattern || new RegExp(s.pattern, 'u').test(c)) && c.length >= (s.minLength ?? 0) && c.length <= (s.maxLength ?? Infinity);
      return [...CANDIDATES, 'x'.repeat(Math.max(1, s.minLength ?? 1))].find(fits);
    }
    default:
      return undefined;
  }
}

/** Every operation of the document: its path template, method and definition. */
export function operations(doc: Record<string, unknown>): { path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
      .map(([method, op]) => ({ path, method, op })),
  );
}

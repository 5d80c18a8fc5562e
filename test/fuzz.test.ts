/**
 * Every operation of the OpenAPI document, sent malformed as an attacker's fuzzer would (wrong types, boundary and
 * hostile strings, broken JSON, wrong content types, garbage path parameters and query values), with valid keys
 * and real ids so the requests get past authentication and reach the handlers. Non-negotiable: no 5xx, and every
 * error in the JSON envelope `{ error: { code, message } }`. Afterwards the data is still there and the consent
 * log still verifies. Deterministic: the same requests on every run, on SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { operations, resolve, sample, type Schema } from './openapi/samples.js';
import { testConfig } from '../src/config.js';
import { DIALECTS, HOSTING_KEY, populatedClient, validConsentBody, useApp, type TestContext } from './helper.js';

/** Operations that reach out to the network with valid input (scans, vendor lists, previews, webhook checks). */
const OUTBOUND = /onboarding\/(scan|audit)|gvl\/refresh|video-preview|\/webhook/;

/** Strings that break naive code: NUL, lone surrogates, RTL override, markup, traversal, SQL, huge numbers. */
const HOSTILE = [
  '', ' ', '\u0000', 'a\u0000b', '\uD800', '\uDFFF', 'x\u202Ey', '<script>alert(1)</script>', '../../etc/passwd',
  "' or 1=1 --", '%00', '%', '😀'.repeat(3), '9'.repeat(40), '-1', '1e309', 'NaN', 'null', '__proto__', 'constructor',
];
const WRONG_TYPES: unknown[] = [null, true, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', 'x', [], [null], {}, { a: 1 }];

/** Percent-encoding that also writes what encodeURIComponent refuses: a lone surrogate as its (invalid) UTF-8 bytes. */
const enc = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
};

/** Values of the property's own type that test its bounds and content: the longest allowed, hostile text. */
function edges(doc: Record<string, unknown>, raw: Schema): unknown[] {
  const s = resolve(doc, raw);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'string') {
    const max = Math.min(s.maxLength ?? 100_000, 100_000);
    return [...HOSTILE, 'x'.repeat(max), 'x'.repeat(max + 1), '\uD800'.repeat(Math.min(max, 1000))];
  }
  if (type === 'integer' || type === 'number') return [s.minimum ?? 0, s.maximum ?? 2 ** 31, (s.minimum ?? 0) - 1, (s.maximum ?? 2 ** 31) + 1, 0.5];
  if (type === 'array') return [Array.from({ length: 10_000 }, () => 'x'), [[[[[]]]]], HOSTILE];
  if (type === 'object') return [{ __proto__: { polluted: true } }, JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')];
  return [];
}

/** What is wrong with an answer, if anything: a 5xx, or an error outside the JSON envelope. */
function problem(label: string, res: { statusCode: number; body: string }): string | undefined {
  const where = `${label} → ${res.statusCode} ${res.body.slice(0, 200)}`;
  if (res.statusCode >= 500) return where;
  if (res.statusCode < 400) return undefined;
  try {
    const body = JSON.parse(res.body) as { error?: { code?: unknown; message?: unknown } };
    return typeof body.error?.code === 'string' && typeof body.error.message === 'string' ? undefined : `no envelope: ${where}`;
  } catch {
    return `not JSON: ${where}`;
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: every operation, fuzzed`, () => {
    // The fixture's webhook has a loopback address; the worker stays idle.
    const ctx: TestContext = useApp(dialect, { webhooks: { ...testConfig().webhooks, allowPrivateNetworks: true, pollIntervalMs: 3_600_000 } });

    it('answers malformed input with a 4xx in the error envelope, never a 5xx, and loses nothing', { timeout: 300_000 }, async () => {
      await ctx.app.ready();
      const doc = structuredClone(ctx.app.swagger()) as unknown as Record<string, unknown>;
      // Real ids for every path parameter that has one, so the requests reach the handlers, not only the router.
      const { client, domain, base, domainKey, ids: known } = await populatedClient(ctx, 'fuzz');
      // The public routes' bodies start from a consent that would be logged, so each change is what refuses it.
      const validConsent = await validConsentBody(ctx, client, domain);

      let sent = 0;
      const problems: string[] = [];
      let acknowledged = 1; // the fixture's own consent
      const ops = operations(doc)
        // The public routes first, while the domain still has its name (the Hosting API's fuzzing renames it);
        // deleting operations last, so the fixtures stay for everything else.
        .sort((a, b) => Number(!a.path.startsWith('/public/')) - Number(!b.path.startsWith('/public/')) || Number(a.method === 'delete') - Number(b.method === 'delete'));

      for (const { path, method, op } of ops) {
        const params = (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(doc, p.schema) }));
        const auth = path.startsWith('/hosting/') ? `Bearer ${HOSTING_KEY}` : path.startsWith('/api/') ? `Bearer ${domainKey}` : undefined;
        const send = async (label: string, url: string, payload?: string | Buffer, contentType?: string) => {
          sent++;
          const res = await ctx.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: { ...(auth ? { authorization: auth } : {}), ...(contentType ? { 'content-type': contentType } : {}), origin: `https://${domain.name}` },
            ...(payload !== undefined ? { payload } : {}),
          });
          if (path === '/public/consent' && res.statusCode === 204) acknowledged++;
          const wrong = problem(`${method.toUpperCase()} ${path}: ${label}`, res);
          if (wrong) problems.push(wrong);
          return res;
        };

        // Path parameters: garbage in each, the others real.
        for (const p of params.filter((x) => x.in === 'path')) {
          for (const bad of ['x', '%00', '%2e%2e', '%F0%9F%98%80', 'a'.repeat(300), '-1', '0', '99999999999999999999', '%25', '%C0%AF']) {
            const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === p.name ? bad : enc(known[name] ?? 'x')));
            await send(`path ${p.name}=${bad.slice(0, 20)}`, url);
          }
        }
        if (OUTBOUND.test(path) || method === 'delete') continue;

        // Query parameters: hostile and wrong-typed values, repeated, and a pile of unknown ones.
        const at = path.replace(/\{(\w+)\}/g, (_, name: string) => enc(known[name] ?? String(sample(doc, params.find((p) => p.name === name)?.schema) ?? 'x')));
        for (const p of params.filter((x) => x.in === 'query')) {
          for (const bad of [...HOSTILE, '1e309', '-9999999999', '[object Object]'].map(enc)) await send(`query ${p.name}=${bad}`, `${at}?${p.name}=${bad}`);
          await send(`query ${p.name} repeated`, `${at}?${p.name}=1&${p.name}=2&${p.name}[]=3`);
        }
        await send('unknown query', `${at}?${Array.from({ length: 200 }, (_, i) => `q${i}=${'x'.repeat(50)}`).join('&')}`);

        // Bodies.
        const content = op.requestBody?.content;
        if (!content) {
          if (method !== 'get') await send('unexpected body', at, '{"a":1}', 'application/json');
          continue;
        }
        const type = Object.keys(content)[0]!;
        const schema = resolve(doc, content[type]!.schema);
        for (const raw of ['', '{', '{"a":', 'null', '[]', '"x"', '1', 'true', '{"a":1}'.repeat(2), '\u0000', '[' .repeat(10_000) + ']'.repeat(10_000), `{"x":"${'\\uD800'}"}`]) {
          await send(`raw body ${raw.slice(0, 12)}`, at, raw, type);
        }
        await send('wrong content type', at, 'a=1&b=2', 'application/x-www-form-urlencoded');
        await send('multipart', at, '--b\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n', 'multipart/form-data; boundary=b');
        await send('binary', at, Buffer.from([0xff, 0xfe, 0x00, 0x01]), 'application/octet-stream');
        await send('invalid utf-8 json', at, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), type);

        const valid = (path.startsWith('/public/') ? validConsent : sample(doc, schema)) as Record<string, unknown> | undefined;
        // From the valid body, one change; on the public routes with a fresh visitor id each time, since the
        // per-visitor limit would refuse the same one after a few.
        const changed = (change: Record<string, unknown>) =>
          JSON.stringify({ ...(typeof valid === 'object' && valid ? valid : {}), ...(path.startsWith('/public/') ? { ucid: randomBytes(32).toString('hex') } : {}), ...change });
        const props = Object.entries(resolve(doc, schema).properties ?? {});
        for (const [name, propSchema] of props) {
          for (const v of [...WRONG_TYPES, ...edges(doc, propSchema)]) {
            await send(`body ${name}=${JSON.stringify(v)?.slice(0, 24)}`, at, changed({ [name]: v }), type);
          }
          // One level down: each property of an object property, wrong-typed.
          const inner = resolve(doc, propSchema);
          for (const [sub] of Object.entries(inner.properties ?? {}).slice(0, 8)) {
            for (const v of [null, 1, 'x', [], {}]) {
              const outer = typeof valid === 'object' && valid && typeof valid[name] === 'object' ? (valid[name] as object) : {};
              await send(`body ${name}.${sub}=${JSON.stringify(v)}`, at, changed({ [name]: { ...outer, [sub]: v } }), type);
            }
          }
        }
      }
      expect(problems).toEqual([]);
      expect(sent).toBeGreaterThan(3000);

      // Nothing lost: the fixtures are still there (deletes ran on garbage ids only) and the log verifies.
      const got = await ctx.hosting({ method: 'GET', url: base });
      expect(got.statusCode).toBe(200);
      const verify = await ctx.hosting({ method: 'GET', url: `${base}/consent-log/verify` });
      expect(verify.json()).toMatchObject({ ok: true });
      // Every consent acknowledged with 204 is in the log (the fuzzer's valid-but-odd ones included), no more.
      const stored = await ctx.database.db.selectFrom('consent_records').select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', domain.id).executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(acknowledged);
      expect(acknowledged).toBeGreaterThan(1);
      const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    });
  });
}

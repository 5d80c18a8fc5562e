import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App, type BuildOptions } from '../src/app.js';
import { testConfig, type Config } from '../src/config.js';
import { connect, type DatabaseHandle } from '../src/db/connect.js';
import type { Engine } from '../src/db/database.js';
import { ConsentTokens, loadConsentTokens } from '../src/features/consent-ingest/consent-token.js';
import { randomIds, systemClock, type Clock, type Deps } from '../src/deps.js';
import { snapshotOf } from '../src/features/consent-log/consent-log.snapshot.js';
import { keepSnapshot } from '../src/features/consent-log/consent-log.snapshots.repository.js';

/** Data tests run on SQLite always and on PostgreSQL when TEST_DATABASE_URL is set (STYLE practice 11). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const DIALECTS: Engine[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const HOSTING_KEY = 'test-hosting-key-0123456789abcdef';

/** A fresh, empty database: in-memory SQLite, or a PostgreSQL schema of its own that is dropped afterwards. */
export async function freshDatabase(engine: Engine): Promise<DatabaseHandle> {
  if (engine === 'sqlite') return connect({ kind: 'sqlite', file: ':memory:' });
  const url = TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = connect({ kind: 'postgres', url }, { pgSchema: schema, pgPoolSize: 5 });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}

export interface TestContext {
  app: App;
  database: DatabaseHandle;
  config: Config;
  /** The app's clock (a test's fixed clock, else the system's). */
  clock: Clock;
  /** Injects with the Hosting API key in the Authorization header. */
  hosting(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/**
 * Builds an app on a fresh database for the enclosing describe block and closes both afterwards. Use
 * inside `describe`; the returned object is filled in beforeAll.
 */
export function useApp(
  engine: Engine,
  overrides: Partial<Config> = {},
  options: Omit<BuildOptions, 'config' | 'database'> = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    ctx.config = testConfig({ hostingApiKey: HOSTING_KEY, ...overrides });
    ctx.clock = options.clock ?? systemClock;
    ctx.database = await freshDatabase(engine);
    ctx.app = await buildApp({ ...options, config: ctx.config, database: ctx.database });
    ctx.hosting = (opts) =>
      ctx.app.inject({ ...opts, headers: { authorization: `Bearer ${HOSTING_KEY}`, ...(opts.headers ?? {}) } });
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });
  return ctx;
}

/** The app's dependencies, for tests that drive a service directly (with their own clock where they need one). */
export const depsOf = (ctx: TestContext, clock: Clock = systemClock): Deps => ({
  config: ctx.config, db: ctx.database.db, engine: ctx.database.engine, clock, ids: randomIds, log: ctx.app.log,
});

let sequence = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(sequence++).toString(36)}`;

export async function createClient(ctx: TestContext, body: Record<string, unknown> = {}) {
  const username = unique('user');
  const res = await ctx.hosting({
    method: 'POST',
    url: '/hosting/api/client',
    payload: { username, password: 'correct horse battery', emailAddress: `${username}@example.com`, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createClient: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; apiKey: string; username: string }>();
}

export async function createDomain(ctx: TestContext, clientId: string, body: Record<string, unknown> = {}) {
  const res = await ctx.hosting({
    method: 'POST',
    url: `/hosting/api/client/${clientId}/domain`,
    payload: { name: `${unique('site')}.example`, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createDomain: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; name: string }>();
}

/**
 * The body the widget sends for one valid consent of the domain (a new ucid, a served snapshot, the widget token);
 * `fields` override its defaults.
 */
export async function validConsentBody(
  ctx: TestContext,
  client: { apiKey: string },
  domain: { id: string },
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { ucid: string }> {
  const revision = typeof fields.revision === 'number' ? fields.revision : 1;
  return {
    apiKey: client.apiKey, domain: domain.id, ucid: randomBytes(32).toString('hex'), consent: true, embeddings: [],
    manipulationPrevention: true, button: 'acceptAll', lang: 'en', revision, legalRevision: 1,
    token: await consentToken(ctx, domain.id, revision, ctx.clock.now().getTime()),
    snapshot: await servedSnapshot(ctx, domain.id), ...fields,
  };
}

/**
 * Logs one valid consent for the domain through `POST /public/consent` (as the widget sends it) and
 * returns its ucid; `fields` override the body's defaults.
 */
export async function sendConsent(
  ctx: TestContext,
  client: { apiKey: string },
  domain: { id: string; name: string },
  fields: Record<string, unknown> = {},
): Promise<string> {
  const body = await validConsentBody(ctx, client, domain, fields);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/public/consent',
    headers: { origin: `https://${domain.name}`, 'content-type': 'text/plain' },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 204) throw new Error(`consent: ${res.statusCode} ${res.body}`);
  return body.ucid;
}

/**
 * A client with one of everything a client-scoped operation can name (domain, embedding, asset, placeholder,
 * locale, theme, webhook, a logged consent set aside in quarantine, a Domain API key), created through the Hosting
 * API as the agency; `ids` by path parameter name, for tests that sweep the OpenAPI document's operations. The
 * webhook's loopback address needs `webhooks.allowPrivateNetworks`. Every text holds `label`.
 */
export async function populatedClient(ctx: TestContext, label: string, password = 'correct horse battery') {
  const client = await createClient(ctx, { password, active: true });
  const domain = await createDomain(ctx, client.id, { name: `${label}-secret-site.example` });
  const base = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const post = async (url: string, payload: object) => {
    const res = await ctx.hosting({ method: 'POST', url, payload });
    if (res.statusCode !== 201) throw new Error(`fixture ${url}: ${res.statusCode} ${res.body}`);
    return res.json<{ id: string; apiKey: string }>();
  };
  const embedding = await post(`${base}/embedding`, { name: `${label} secret embedding`, purpose: 'a717ff5', scriptMarkers: [`${label}.example/tag.js`] });
  const asset = await post(`${base}/embedding/${embedding.id}/asset`, { name: `_${label}`, type: 'cookie' });
  await post(`${base}/placeholder`, { name: `${label}ph`, value: `${label} secret value` });
  await post(`${base}/locale`, { name: 'de_DE' });
  const theme = await post(`${base}/theme`, { name: `${label} secret theme` });
  const webhook = await post(`${base}/webhook`, { url: 'http://127.0.0.1:9/hook' });
  const ucid = await sendConsent(ctx, client, domain);
  const quarantine = await post(`${base}/consent-log/quarantine`, { fromSeq: 1, toSeq: 1, reason: `${label} secret reason` });
  const domainKey = (await post(`/hosting/api/client/${client.id}/domain-api-key`, {})).apiKey;
  return {
    client, domain, base, ucid, domainKey,
    ids: {
      clientId: client.id, domainId: domain.id, embeddingId: embedding.id, assetId: asset.id, placeholderName: `${label}ph`,
      localeName: 'de_DE', themeId: theme.id, webhookId: webhook.id, quarantineId: quarantine.id, consentId: ucid, blockId: '0',
      username: client.username, apiKey: client.apiKey, searchTerm: client.username, language: 'en',
    } as Record<string, string>,
    /** What must never appear in an answer to another client. */
    secrets: [client.apiKey, client.username, domain.name, `${label} secret`, ucid, domainKey],
  };
}

/**
 * A widget token for the domain and revision, as the widget body Placet serves carries it (docs/consent-log.md,
 * "Widget tokens"): made with the installation's secret, issued at the start of the current hour.
 */
export async function consentToken(ctx: TestContext, domainId: string, revision: number, nowMs = Date.now()): Promise<string> {
  const tokens = await loadConsentTokens(ctx.database.db, ctx.config);
  return tokens.mint(domainId, revision, ConsentTokens.issueTime(Math.floor(nowMs / 1000)));
}

/**
 * The hash of a configuration "served" for the domain, for tests about something else than snapshots: a
 * small stand-in configuration kept as the widget service keeps what it serves (consent-log snapshots).
 * Tests of snapshots themselves load the real widget (`/public/app.js`) instead.
 */
export async function servedSnapshot(ctx: TestContext, domainId: string): Promise<string> {
  const snapshot = snapshotOf({ d: domainId, test: 'stand-in configuration' });
  await keepSnapshot(ctx.database.db, domainId, snapshot, 0, Math.floor(Date.now() / 1000));
  return snapshot.hash;
}

/** The domain's configuration and legal revisions, read straight from the database. */
export async function domainRevisions(ctx: TestContext, domainId: string) {
  return ctx.database.db
    .selectFrom('domains')
    .select(['config_revision', 'legal_revision'])
    .where('id', '=', domainId)
    .executeTakeFirstOrThrow();
}

/** The configuration object inlined into a served widget (`JSON.parse("…")` in the body of /public/app.js). */
export function inlinedWidgetConfig(body: string): Record<string, unknown> {
  const match = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(body);
  if (!match) throw new Error('no inlined configuration in the widget body');
  return JSON.parse(JSON.parse(match[1]!)) as Record<string, unknown>;
}

/**
 * Polls `probe` until it returns something other than undefined or false. The default deadline stays below vitest's
 * 20 s test timeout, so that a wait that stalls fails with the name of what it waited for, not a bare test timeout.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

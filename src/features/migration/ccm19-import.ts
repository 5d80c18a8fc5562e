import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { randomBytes } from 'node:crypto';
import type { TSchema } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError, type ErrorDetail } from '../../errors.js';
import { addSchemaKeywords, validationDetails } from '../../plugins/validation.js';
import { findClientByApiKey, findClientByUsername } from '../clients/clients.repository.js';
import { CreateClientBody, type CreateClient } from '../clients/clients.schemas.js';
import { createClient, updateClient } from '../clients/clients.service.js';
import { parseDomainName } from '../domains/domain-name.js';
import { domainIdTaken, findDomain, findDomainByName } from '../domains/domains.repository.js';
import { CreateDomainBody, type CreateDomain } from '../domains/domains.schemas.js';
import { createDomain } from '../domains/domains.service.js';
import { CreateEmbeddingBody, type CreateEmbedding } from '../embeddings/embeddings.schemas.js';
import { createEmbedding, listEmbeddings } from '../embeddings/embeddings.service.js';
import { CreateLocaleBody, type CreateLocale } from '../locales/locales.schemas.js';
import { createLocale } from '../locales/locales.service.js';
import { CreatePlaceholderBody, type CreatePlaceholder } from '../placeholders/placeholders.schemas.js';
import { createPlaceholder } from '../placeholders/placeholders.service.js';
import { CreateThemeBody, type CreateTheme } from '../themes/themes.schemas.js';
import { createTheme, listThemes, updateTheme } from '../themes/themes.service.js';

/**
 * `npm run import:ccm19`: recreates an agency exported from the established product, in its Hosting API
 * shapes (reference-model §2.5), through the same services (and the same validation) as the Hosting API.
 * Idempotent: what exists is skipped, so a second run (or a run after a failed one) creates only what is
 * missing. See docs/migration.md for the file format and the matching rules.
 */

export type ItemType = 'client' | 'domain' | 'embedding' | 'locale' | 'theme' | 'placeholder';

export interface ReportItem {
  type: ItemType;
  /** A person-readable path to the item: `client acme / domain www.site.tld / embedding Matomo`. */
  ref: string;
  /** Why it was skipped or could not be mapped (the API's error message and field details). */
  reason?: string;
  details?: ErrorDetail[];
}

export interface ImportReport {
  created: ReportItem[];
  skipped: ReportItem[];
  couldNotMap: ReportItem[];
}

type Json = Record<string, unknown>;

/** Bodies are checked like the Hosting API checks them (unknown and read-only fields dropped, no coercion). */
const ajv = addSchemaKeywords(
  addFormats.default(new Ajv.default({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, removeAdditional: true })),
);
const validators = new Map<TSchema, ValidateFunction>();
function validate<T>(schema: TSchema, value: unknown): { ok: true; value: T } | { ok: false; details: ErrorDetail[] } {
  let check = validators.get(schema);
  if (!check) validators.set(schema, (check = ajv.compile(schema)));
  const copy = structuredClone(value);
  if (check(copy)) return { ok: true, value: copy as T };
  return { ok: false, details: validationDetails(check.errors ?? [], 'body') };
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const text = (v: unknown, fallback: string) => (typeof v === 'string' && v !== '' ? v : fallback);

/** The clients of an export: `{ "clients": [...] }` or a bare array of clients. */
export function exportClients(data: unknown): Json[] {
  if (Array.isArray(data)) return list(data);
  if (isObject(data) && Array.isArray(data.clients)) return list(data.clients);
  throw new Error('the export must be a JSON array of clients or an object with a "clients" array');
}

export async function importCcm19(deps: Deps, data: unknown): Promise<ImportReport> {
  const report: ImportReport = { created: [], skipped: [], couldNotMap: [] };
  for (const client of exportClients(data)) await importClient(deps, report, client);
  return report;
}

async function importClient(deps: Deps, report: ImportReport, input: Json): Promise<void> {
  const ref = `client ${text(input.username, '(no username)')}`;
  const checked = validate<CreateClient>(CreateClientBody, withPassword(input));
  if (!checked.ok) return void report.couldNotMap.push({ type: 'client', ref, reason: 'invalid fields', details: checked.details });
  const body = checked.value;
  const existing =
    (body.apiKey !== undefined ? await findClientByApiKey(deps.db, body.apiKey) : undefined) ??
    (await findClientByUsername(deps.db, body.username));
  let clientId: string;
  let flags: CreateClient['features'];
  if (existing) {
    if (body.apiKey !== undefined && existing.api_key !== body.apiKey) {
      return void report.couldNotMap.push({
        type: 'client', ref, reason: 'the username belongs to a client with another apiKey; its domains were not imported',
      });
    }
    clientId = existing.id;
    report.skipped.push({ type: 'client', ref, reason: 'exists' });
  } else {
    // Created with every feature on, and given its own flags after its content: the content existed in the
    // established product, and a flag that is off refuses writes of what it gates (README, "Feature flags"),
    // which would drop script markers and so let trackers run.
    const { features, ...withoutFeatures } = body;
    const created = await attempt(report, 'client', ref, () => createClient(deps, withoutFeatures));
    if (!created) return;
    flags = features;
    clientId = created.id;
    if (typeof input.passwordHash !== 'string' && typeof input.password !== 'string') {
      report.couldNotMap.push({
        type: 'client', ref, reason: 'no password or passwordHash in the export: created with a random password; set one to let the client sign in',
        details: [{ field: 'passwordHash', message: 'missing' }],
      });
    }
  }
  for (const domain of list(input.domains)) await importDomain(deps, report, clientId, ref, domain);
  if (flags !== undefined) await updateClient(deps, clientId, { features: flags });
}

/** The export never holds a password; a client without a hash gets a random one it cannot know. */
function withPassword(input: Json): Json {
  if (typeof input.password === 'string' || typeof input.passwordHash === 'string') return input;
  return { ...input, password: randomBytes(24).toString('base64url') };
}

async function importDomain(deps: Deps, report: ImportReport, clientId: string, parent: string, input: Json): Promise<void> {
  // The export has the host in `name` and the path apart; the create body takes them together.
  const path = typeof input.path === 'string' && input.path !== '' && input.path !== '/' ? input.path : '';
  const name = typeof input.name === 'string' ? `${input.name.replace(/\/+$/, '')}${path}` : input.name;
  const ref = `${parent} / domain ${text(input.name, '(no name)')}${path}`;
  const checked = validate<CreateDomain>(CreateDomainBody, { ...input, name });
  if (!checked.ok) return void report.couldNotMap.push({ type: 'domain', ref, reason: 'invalid fields', details: checked.details });
  const body = checked.value;
  const parsed = parseDomainName(body.name);
  let domainId: string | undefined;
  if (body.id !== undefined && (await findDomain(deps.db, clientId, body.id))) domainId = body.id;
  else if (body.id === undefined && parsed && (await findDomainByName(deps.db, clientId, parsed.name, parsed.path))) {
    domainId = (await findDomainByName(deps.db, clientId, parsed.name, parsed.path))!.id;
  } else if (body.id !== undefined && (await domainIdTaken(deps.db, body.id))) {
    return void report.couldNotMap.push({
      type: 'domain', ref, reason: 'another client already has a domain with this id; it and its content were not imported',
      details: [{ field: 'id', message: body.id }],
    });
  }
  let fresh = false;
  if (domainId !== undefined) {
    report.skipped.push({ type: 'domain', ref, reason: 'exists' });
  } else {
    const created = await attempt(report, 'domain', ref, () => createDomain(deps, clientId, body));
    if (!created) return;
    domainId = created.id;
    fresh = true;
  }
  const at = { clientId, domainId, ref };
  await importEmbeddings(deps, report, at, list(input.embeddings));
  for (const locale of list(input.locales)) {
    await importNamed(report, 'locale', at, locale, CreateLocaleBody, 'LOCALE_NAME_TAKEN', (b: CreateLocale) =>
      createLocale(deps, clientId, domainId, b));
  }
  for (const placeholder of list(input.placeholders)) {
    await importNamed(report, 'placeholder', at, placeholder, CreatePlaceholderBody, 'PLACEHOLDER_NAME_TAKEN', (b: CreatePlaceholder) =>
      createPlaceholder(deps, clientId, domainId, b));
  }
  await importThemes(deps, report, at, list(input.themes), fresh);
}

interface At {
  clientId: string;
  domainId: string;
  ref: string;
}

/** Embeddings have no unique name in the API; the importer treats the name as the key within a domain. */
async function importEmbeddings(deps: Deps, report: ImportReport, at: At, inputs: Json[]): Promise<void> {
  if (inputs.length === 0) return;
  const names = new Set((await listEmbeddings(deps, at.clientId, at.domainId)).map((e) => e.name));
  for (const input of inputs) {
    const ref = `${at.ref} / embedding ${text(input.name, '(no name)')}`;
    const checked = validate<CreateEmbedding>(CreateEmbeddingBody, input);
    if (!checked.ok) {
      report.couldNotMap.push({ type: 'embedding', ref, reason: 'invalid fields', details: checked.details });
      continue;
    }
    if (names.has(checked.value.name)) {
      report.skipped.push({ type: 'embedding', ref, reason: 'exists' });
      continue;
    }
    if (await attempt(report, 'embedding', ref, () => createEmbedding(deps, at.clientId, at.domainId, checked.value))) {
      names.add(checked.value.name);
    }
  }
}

async function importNamed<T>(
  report: ImportReport,
  type: ItemType,
  at: At,
  input: Json,
  schema: TSchema,
  takenCode: string,
  create: (body: T) => Promise<unknown>,
): Promise<void> {
  const ref = `${at.ref} / ${type} ${text(input.name, '(no name)')}`;
  const checked = validate<T>(schema, input);
  if (!checked.ok) return void report.couldNotMap.push({ type, ref, reason: 'invalid fields', details: checked.details });
  try {
    await create(checked.value);
    report.created.push({ type, ref });
  } catch (err) {
    if (err instanceof AppError && err.code === takenCode) report.skipped.push({ type, ref, reason: 'exists' });
    else if (err instanceof AppError && err.status < 500) report.couldNotMap.push({ type, ref, reason: err.message, details: err.details });
    else throw err;
  }
}

/**
 * Themes are matched by name. A domain created by this run already has Placet's default theme: the
 * export's default theme (else its first) takes its place, so the domain ends with exactly the exported themes.
 */
async function importThemes(deps: Deps, report: ImportReport, at: At, inputs: Json[], fresh: boolean): Promise<void> {
  if (inputs.length === 0) return;
  const existing = await listThemes(deps, at.clientId, at.domainId);
  const names = new Set(existing.map((t) => t.name));
  const replaceable = fresh && existing.length === 1 ? existing[0] : undefined;
  const ordered = [...inputs].sort((a, b) => Number(b.default === true) - Number(a.default === true));
  for (const input of ordered) {
    const ref = `${at.ref} / theme ${text(input.name, '(no name)')}`;
    const checked = validate<CreateTheme>(CreateThemeBody, input);
    if (!checked.ok) {
      report.couldNotMap.push({ type: 'theme', ref, reason: 'invalid fields', details: checked.details });
      continue;
    }
    const body = checked.value;
    if (replaceable && input === ordered[0]) {
      await attempt(report, 'theme', ref, () => updateTheme(deps, at.clientId, at.domainId, replaceable.id, { ...body, default: true }));
      names.add(body.name);
      continue;
    }
    if (names.has(body.name)) {
      report.skipped.push({ type: 'theme', ref, reason: 'exists' });
      continue;
    }
    if (await attempt(report, 'theme', ref, () => createTheme(deps, at.clientId, at.domainId, body))) names.add(body.name);
  }
}

/** Runs a create; an API error (4xx) is reported as could-not-map, anything else stops the import. */
async function attempt<T>(report: ImportReport, type: ItemType, ref: string, create: () => Promise<T>): Promise<T | undefined> {
  try {
    const result = await create();
    report.created.push({ type, ref });
    return result;
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    report.couldNotMap.push({ type, ref, reason: err.message, details: err.details });
    return undefined;
  }
}

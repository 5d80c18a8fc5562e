import bcrypt from 'bcryptjs';
import type { Deps } from '../../deps.js';
import { isoNow, sha256Hex } from '../../deps.js';
import type { Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../errors.js';
import { requireFeature } from './feature-gates.js';
import {
  bumpConfigRevisionsOfClient,
  deleteClientRow,
  domainUsage,
  findClientByApiKey,
  findClientByEmail,
  findClientById,
  findClientByUsername,
  insertClient,
  listClientRows,
  updateClientRow,
  type DomainUsage,
} from './clients.repository.js';
import {
  FEATURE_FLAGS,
  type Client,
  type ClientListItem,
  type CreateClient,
  type Features,
  type UpdateClient,
} from './clients.schemas.js';
import type { ClientRow, ClientRowUpdate } from './clients.table.js';

/**
 * Defaults a new agency does not trip over: unlimited quotas (`-1`) and every feature on. The
 * established product defaults quotas to 0, which makes a freshly created client unable to add a domain.
 */
export const CLIENT_DEFAULTS = {
  active: false,
  domainMaxCount: -1,
  whitelabelMaxCount: -1,
  widgetDisplayMaxCount: -1,
  autoCreateDomains: false,
} as const;

/** `YYYY-MM` in UTC: the key of the monthly call counters. */
export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

export async function createClient(deps: Deps, input: CreateClient): Promise<Client> {
  const passwordHash = await hashPassword(deps, input.password, input.passwordHash);
  if (passwordHash === undefined) {
    throw new AppError('VALIDATION_FAILED', [
      { field: 'body.password', message: 'is required (or give a bcrypt passwordHash)' },
    ]);
  }
  const now = isoNow(deps.clock);
  const features = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, input.features?.[f] ?? true])) as Features;
  const id = deps.ids.shortId();
  if (input.apiKey !== undefined && (await findClientByApiKey(deps.db, input.apiKey))) throw apiKeyTaken();
  try {
    await insertClient(deps.db, {
      id,
      username: input.username,
      username_key: input.username.toLowerCase(),
      password_hash: passwordHash,
      active: Number(input.active ?? CLIENT_DEFAULTS.active),
      first_name: input.firstName ?? '',
      last_name: input.lastName ?? '',
      company: input.company ?? '',
      email_address: input.emailAddress,
      domain_max_count: input.domainMaxCount ?? CLIENT_DEFAULTS.domainMaxCount,
      whitelabel_max_count: input.whitelabelMaxCount ?? CLIENT_DEFAULTS.whitelabelMaxCount,
      widget_display_max_count: input.widgetDisplayMaxCount ?? CLIENT_DEFAULTS.widgetDisplayMaxCount,
      auto_create_domains: Number(input.autoCreateDomains ?? CLIENT_DEFAULTS.autoCreateDomains),
      features: JSON.stringify(features),
      api_key: input.apiKey ?? deps.ids.hex(24),
      domain_api_key_hash: null,
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    // Two imports racing for the same key: the unique index decides, and the loser hears which field.
    if (input.apiKey !== undefined && isUniqueViolation(err) && (await findClientByApiKey(deps.db, input.apiKey))) {
      throw apiKeyTaken();
    }
    throw mapUniqueError(err);
  }
  return getClient(deps, id);
}

const apiKeyTaken = () => new AppError('API_KEY_TAKEN', [{ field: 'body.apiKey', message: 'is already used by another client' }]);

export async function listClients(deps: Deps): Promise<ClientListItem[]> {
  const [rows, usage] = await Promise.all([
    listClientRows(deps.db),
    domainUsage(deps.db, monthOf(deps.clock.now())),
  ]);
  const byClient = new Map<string, DomainUsage[]>();
  for (const u of usage) {
    const list = byClient.get(u.clientId);
    if (list) list.push(u);
    else byClient.set(u.clientId, [u]);
  }
  return rows.map((row) => {
    const domains = byClient.get(row.id) ?? [];
    const client = clientRowToClient(row, domains);
    return {
      ...client,
      actualCallCount: client.widgetDisplayCount,
      domainCountData: domains.map((d) => ({ domName: d.name, count: d.calls })),
    };
  });
}

export async function getClient(deps: Deps, id: string): Promise<Client> {
  return withUsage(deps, await findClientById(deps.db, id));
}

export async function getClientByUsername(deps: Deps, username: string): Promise<Client> {
  return withUsage(deps, await findClientByUsername(deps.db, username));
}

export async function getClientByApiKey(deps: Deps, apiKey: string): Promise<Client> {
  return withUsage(deps, await findClientByApiKey(deps.db, apiKey));
}

/** The deprecated search: a username match first, else the oldest client with that e-mail address. */
export async function searchClient(deps: Deps, term: string): Promise<Client> {
  const row = (await findClientByUsername(deps.db, term)) ?? (await findClientByEmail(deps.db, term));
  return withUsage(deps, row);
}

/** PUT merges: omitted fields keep their value, omitting `password` keeps the password. */
export async function updateClient(deps: Deps, id: string, input: UpdateClient): Promise<Client> {
  const current = await findClientById(deps.db, id);
  if (!current) throw new AppError('CLIENT_NOT_FOUND');
  const changes: ClientRowUpdate = { updated_at: isoNow(deps.clock) };
  if (input.username !== undefined) {
    changes.username = input.username;
    changes.username_key = input.username.toLowerCase();
  }
  const passwordHash = await hashPassword(deps, input.password, input.passwordHash);
  if (passwordHash !== undefined) changes.password_hash = passwordHash;
  if (input.active !== undefined) changes.active = Number(input.active);
  if (input.firstName !== undefined) changes.first_name = input.firstName;
  if (input.lastName !== undefined) changes.last_name = input.lastName;
  if (input.company !== undefined) changes.company = input.company;
  if (input.emailAddress !== undefined) changes.email_address = input.emailAddress;
  if (input.domainMaxCount !== undefined) changes.domain_max_count = input.domainMaxCount;
  if (input.whitelabelMaxCount !== undefined) changes.whitelabel_max_count = input.whitelabelMaxCount;
  if (input.widgetDisplayMaxCount !== undefined) changes.widget_display_max_count = input.widgetDisplayMaxCount;
  if (input.autoCreateDomains !== undefined) changes.auto_create_domains = Number(input.autoCreateDomains);
  let featuresChanged = false;
  if (input.features !== undefined) {
    const before = parseFeatures(current.features);
    const after = { ...before, ...input.features };
    changes.features = JSON.stringify(after);
    featuresChanged = FEATURE_FLAGS.some((f) => before[f] !== after[f]);
  }
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await updateClientRow(trx, id, changes))) throw new AppError('CLIENT_NOT_FOUND');
      // The flags shape the widget each domain serves (docs/widget.md, "Feature flags"), and the widget
      // cache and the consent tokens are keyed by the domain's configuration revision: every process must
      // rebuild, so the revisions go up with the flags, in the same transaction.
      if (featuresChanged) await bumpConfigRevisionsOfClient(trx, id, changes.updated_at!);
    });
  } catch (err) {
    throw mapUniqueError(err);
  }
  return getClient(deps, id);
}

/** The client's feature flags, read with `db` (a transaction's executor when the caller holds one). */
export async function clientFeatures(db: Executor, clientId: string): Promise<Features> {
  const row = await findClientById(db, clientId);
  if (!row) throw new AppError('CLIENT_NOT_FOUND');
  return parseFeatures(row.features);
}

export async function deleteClient(deps: Deps, id: string): Promise<void> {
  if (!(await deleteClientRow(deps.db, id))) throw new AppError('CLIENT_NOT_FOUND');
}

/** Creates the secret Domain API key, replacing (and so invalidating) the previous one at once. */
export async function createDomainApiKey(deps: Deps, clientId: string): Promise<string> {
  // The key would be of no use: the Domain API answers 403 without the flag (README, "Feature flags").
  requireFeature(await clientFeatures(deps.db, clientId), 'canUseDomAPI', 'features.canUseDomAPI');
  const apiKey = `pdk_${deps.ids.hex(32)}`;
  const updated = await updateClientRow(deps.db, clientId, {
    domain_api_key_hash: sha256Hex(apiKey),
    updated_at: isoNow(deps.clock),
  });
  if (!updated) throw new AppError('CLIENT_NOT_FOUND');
  return apiKey;
}

async function withUsage(deps: Deps, row: ClientRow | undefined): Promise<Client> {
  if (!row) throw new AppError('CLIENT_NOT_FOUND');
  return clientRowToClient(row, await domainUsage(deps.db, monthOf(deps.clock.now()), row.id));
}

async function hashPassword(deps: Deps, password?: string, precomputed?: string): Promise<string | undefined> {
  if (password !== undefined) return bcrypt.hash(password, deps.config.passwordHashCost);
  return precomputed;
}

function mapUniqueError(err: unknown): unknown {
  return isUniqueViolation(err)
    ? new AppError('USERNAME_TAKEN', [{ field: 'body.username', message: 'is already taken' }])
    : err;
}

/** Stored flags; a flag missing from the JSON (rows older than it) is on, like a new client's. */
export function parseFeatures(json: string): Features {
  const stored = JSON.parse(json) as Partial<Features>;
  return Object.fromEntries(FEATURE_FLAGS.map((f) => [f, stored[f] ?? true])) as Features;
}

export function clientRowToClient(row: ClientRow, domains: readonly DomainUsage[]): Client {
  const calls = domains.reduce((sum, d) => sum + d.calls, 0);
  return {
    id: row.id,
    username: row.username,
    active: row.active === 1,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    emailAddress: row.email_address,
    domainCount: domains.length,
    domainMaxCount: row.domain_max_count,
    whitelabelCount: domains.filter((d) => d.whitelabel).length,
    whitelabelMaxCount: row.whitelabel_max_count,
    widgetDisplayCount: calls,
    widgetDisplayMaxCount: row.widget_display_max_count,
    autoCreateDomains: row.auto_create_domains === 1,
    features: parseFeatures(row.features),
    apiKey: row.api_key,
  };
}

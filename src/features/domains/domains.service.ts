import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../deps.js';
import type { Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { newShortId } from '../../db/ids.js';
import { AppError } from '../../errors.js';
import { assertPublisherRestrictions } from '../tcf/tcf.service.js';
import { mutateDomain } from './domain-scope.js';
import { MAX_DOMAIN_PATH_LENGTH, isShareableHost, parseDomainName, type ParsedDomainName } from './domain-name.js';
import {
  findDomainSettingsById,
  clientExists,
  countDomains,
  deleteDomainRow,
  domainIdTaken,
  findDomain,
  findDomainByName,
  insertDomain,
  listDomainRows,
  lockClient,
  updateDomainRow,
} from './domains.repository.js';
import {
  DOMAIN_DEFAULTS,
  type CreateDomain,
  type Domain,
  type DomainSettings,
  type UpdateDomain,
} from './domains.schemas.js';
import type { DomainRow, DomainRowUpdate } from './domains.table.js';
import { insertDefaultTheme } from '../themes/themes.service.js';
import { parseFeatures } from '../clients/clients.service.js';
import { DOMAIN_GATES, assertFeatureUse, requireFeature } from '../clients/feature-gates.js';

export async function createDomain(deps: Deps, clientId: string, input: CreateDomain): Promise<Domain> {
  const parsed = parseName(input.name);
  assertShareable(input.consentSharingDomains);
  assertPublisherRestrictions(deps, input.tcfPublisherRestrictions);
  const { id: givenId, name: _name, whitelabel = false, ...settingsInput } = input;
  const settings: DomainSettings = { ...DOMAIN_DEFAULTS, ...settingsInput };
  const now = isoNow(deps.clock);
  const id = await deps.db.transaction().execute(async (trx) => {
    const client = await lockClient(trx, deps.engine, clientId);
    if (!client) throw new AppError('CLIENT_NOT_FOUND');
    const counts = await countDomains(trx, clientId);
    const features = parseFeatures(client.features);
    // Without canUseMultiDom a client has one website; existing ones beyond it keep working.
    if (counts.total >= 1) requireFeature(features, 'canUseMultiDom', 'features.canUseMultiDom');
    assertFeatureUse(features, DOMAIN_GATES, DOMAIN_DEFAULTS, settings);
    if (client.domain_max_count !== -1 && counts.total >= client.domain_max_count) {
      throw new AppError('DOMAIN_LIMIT_REACHED', [
        { field: 'domainMaxCount', message: `the client may have at most ${client.domain_max_count} domains` },
      ]);
    }
    if (whitelabel) assertWhitelabelQuota(client.whitelabel_max_count, counts.whitelabel);
    await assertNameFree(trx, clientId, parsed);
    const id = givenId ?? (await newShortId(trx, 'domains', deps.ids));
    if (givenId !== undefined && (await domainIdTaken(trx, givenId))) throw domainIdTakenError();
    await insertDomain(trx, {
      id,
      client_id: clientId,
      name: parsed.name,
      path: parsed.path,
      scheme: parsed.scheme,
      whitelabel: Number(whitelabel),
      settings: JSON.stringify(settings),
      config_revision: 1,
      legal_revision: 1,
      created_at: now,
      updated_at: now,
    });
    await insertDefaultTheme(trx, deps, id);
    return id;
  }).catch(async (err: unknown) => {
    // Two creates racing for the same given id: the primary key decides, and the loser hears which field.
    if (givenId !== undefined && isUniqueViolation(err) && (await domainIdTaken(deps.db, givenId))) {
      throw domainIdTakenError();
    }
    throw err;
  });
  return getDomain(deps, clientId, id);
}

const domainIdTakenError = () =>
  new AppError('DOMAIN_ID_TAKEN', [{ field: 'body.id', message: 'is already used by another domain' }]);

export async function listDomains(deps: Deps, clientId: string): Promise<Domain[]> {
  const rows = await listDomainRows(deps.db, clientId);
  if (rows.length === 0 && !(await clientExists(deps.db, clientId))) throw new AppError('CLIENT_NOT_FOUND');
  return rows.map(domainRowToDomain);
}

export async function getDomain(deps: Deps, clientId: string, domainId: string): Promise<Domain> {
  const row = await findDomain(deps.db, clientId, domainId);
  if (!row) throw new AppError('DOMAIN_NOT_FOUND');
  return domainRowToDomain(row);
}

/** PUT merges; any real change bumps the configuration revision (the widget cache key) through mutateDomain. */
export async function updateDomain(
  deps: Deps,
  clientId: string,
  domainId: string,
  input: UpdateDomain,
): Promise<Domain> {
  const parsed = input.name !== undefined ? parseName(input.name) : undefined;
  assertShareable(input.consentSharingDomains);
  assertPublisherRestrictions(deps, input.tcfPublisherRestrictions);
  await mutateDomain(
    deps,
    clientId,
    domainId,
    async ({ trx, domain: current, client, changed }) => {
      const { name: _name, whitelabel, ...settingsInput } = input;
      const changes: DomainRowUpdate = {};
      if (parsed && (parsed.name !== current.name || parsed.path !== current.path || parsed.scheme !== current.scheme)) {
        if (parsed.name !== current.name || parsed.path !== current.path) await assertNameFree(trx, clientId, parsed);
        Object.assign(changes, { name: parsed.name, path: parsed.path, scheme: parsed.scheme });
      }
      if (whitelabel !== undefined && Number(whitelabel) !== current.whitelabel) {
        if (whitelabel) assertWhitelabelQuota(client!.whitelabel_max_count, (await countDomains(trx, clientId)).whitelabel);
        changes.whitelabel = Number(whitelabel);
      }
      const settings = parseSettings(current.settings);
      const merged = { ...settings, ...settingsInput };
      assertFeatureUse(parseFeatures(client!.features), DOMAIN_GATES, settings, merged);
      if (!isDeepStrictEqual(merged, settings)) changes.settings = JSON.stringify(merged);
      if (Object.keys(changes).length === 0) return;
      await updateDomainRow(trx, clientId, domainId, changes);
      changed('config');
    },
    { lockClient: true },
  );
  return getDomain(deps, clientId, domainId);
}

export async function deleteDomain(deps: Deps, clientId: string, domainId: string): Promise<void> {
  if (!(await deleteDomainRow(deps.db, clientId, domainId))) throw new AppError('DOMAIN_NOT_FOUND');
}

function parseName(raw: string): ParsedDomainName {
  const parsed = parseDomainName(raw);
  if (!parsed) {
    throw new AppError('DOMAIN_NAME_INVALID', [
      { field: 'body.name', message: 'must be a host name (www.site.tld), host:port or http(s) URL' },
    ]);
  }
  // The name's 500 characters can grow when the path is percent-encoded (é → %C3%A9).
  if (parsed.path.length > MAX_DOMAIN_PATH_LENGTH) {
    throw new AppError('DOMAIN_NAME_INVALID', [
      { field: 'body.name', message: `the path must be at most ${MAX_DOMAIN_PATH_LENGTH} characters once percent-encoded` },
    ]);
  }
  return parsed;
}

function assertShareable(entries: readonly string[] | undefined): void {
  const details = (entries ?? []).flatMap((entry, i) =>
    isShareableHost(entry)
      ? []
      : [{ field: `body.consentSharingDomains.${i}`, message: `${entry} is a public suffix or a single label, not a site's own domain` }],
  );
  if (details.length > 0) throw new AppError('VALIDATION_FAILED', details);
}

async function assertNameFree(trx: Executor, clientId: string, parsed: ParsedDomainName): Promise<void> {
  if (await findDomainByName(trx, clientId, parsed.name, parsed.path)) {
    throw new AppError('DOMAIN_NAME_TAKEN', [
      { field: 'body.name', message: `the client already has ${parsed.name}${parsed.path}` },
    ]);
  }
}

function assertWhitelabelQuota(max: number, used: number): void {
  if (max !== -1 && used >= max) {
    throw new AppError('WHITELABEL_LIMIT_REACHED', [
      { field: 'whitelabelMaxCount', message: `the client may have at most ${max} white-label domains` },
    ]);
  }
}

/** Stored settings plus defaults for fields added after the row was written. */
export function parseSettings(json: string): DomainSettings {
  return { ...DOMAIN_DEFAULTS, ...(JSON.parse(json) as Partial<DomainSettings>) };
}

export function domainRowToDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    whitelabel: row.whitelabel === 1,
    ...parseSettings(row.settings),
  };
}

/**
 * For the agency's account content (account feature): which of these ids are domains, and a revision bump
 * for the domains a change reaches, so every process's widget cache serves the change at once.
 */
export { existingDomainIds, bumpConfigRevisions } from './domains.repository.js';

/**
 * Whether the domain exists and blocks iframes: the only domains whose visitors see video previews
 * (features/video-previews), so the preview endpoint is no image proxy for anyone else.
 */
export async function domainBlocksIframes(deps: Deps, domainId: string): Promise<boolean> {
  const settings = await findDomainSettingsById(deps.db, domainId);
  return settings !== undefined && parseSettings(settings).blockIframes;
}

import { isoNow, type Deps } from '../../deps.js';
import type { Engine, Executor, Transaction } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { Features } from '../clients/clients.schemas.js';
import { clientFeatures, parseFeatures } from '../clients/clients.service.js';
import type { ClientRow } from '../clients/clients.table.js';
import { lockClient } from './domains.repository.js';
import type { DomainRow } from './domains.table.js';

/**
 * Resolves a domain by (client, domain) in one query; another client's domain is "not found". With
 * `lock`, PostgreSQL locks the row until the transaction ends, which serialises all changes to one
 * domain's content across processes (SQLite has a single writer anyway).
 */
export async function requireDomain(
  db: Executor,
  engine: Engine,
  clientId: string,
  domainId: string,
  lock = false,
): Promise<DomainRow> {
  const query = db.selectFrom('domains').selectAll().where('client_id', '=', clientId).where('id', '=', domainId);
  const row = await (lock && engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new AppError('DOMAIN_NOT_FOUND');
  return row;
}

export type Change = 'none' | 'config' | 'legal';

export interface DomainMutation {
  readonly trx: Transaction;
  readonly domain: DomainRow;
  /** The owning client, read under its row lock; only with `{ lockClient: true }`. */
  readonly client: ClientRow | undefined;
  /** Records what the mutation changed; the strongest kind wins. */
  changed(kind: Change): void;
  /** The owning client's feature flags, read in the transaction (src/features/clients/feature-gates.ts). */
  features(): Promise<Features>;
}

/**
 * Runs `fn` in a transaction on a locked domain and then raises the domain's revisions atomically:
 * the configuration revision for anything a visitor could see, the legal revision as well for changes
 * on the legally relevant list (reference-model §4.9). This is the only way a revision goes up after a
 * domain is created: the increment happens in SQL on the locked row, so concurrent changes to one domain
 * (a domain PUT and a theme PUT, in any processes) each count once.
 *
 * `lockClient` locks the client row first (changes that check a client-wide quota or name). The order
 * client → domain is the one domain creation and a client's deletion (cascade) take, so no two
 * transactions wait on each other's lock.
 */
export async function mutateDomain<T>(
  deps: Deps,
  clientId: string,
  domainId: string,
  fn: (m: DomainMutation) => Promise<T>,
  options: { lockClient?: boolean } = {},
): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    const client = options.lockClient ? await lockClient(trx, deps.engine, clientId) : undefined;
    if (options.lockClient && !client) throw new AppError('DOMAIN_NOT_FOUND');
    const domain = await requireDomain(trx, deps.engine, clientId, domainId, true);
    let change: Change = 'none';
    const result = await fn({
      trx,
      domain,
      client,
      changed: (kind) => {
        if (kind === 'legal' || (kind === 'config' && change === 'none')) change = kind;
      },
      features: () => (client ? Promise.resolve(parseFeatures(client.features)) : clientFeatures(trx, clientId)),
    });
    if (change !== 'none') await bumpRevisions(trx, domainId, change === 'legal', isoNow(deps.clock));
    return result;
  });
}

export async function bumpRevisions(db: Executor, domainId: string, legal: boolean, now: string): Promise<void> {
  await db
    .updateTable('domains')
    .set((eb) => ({
      config_revision: eb('config_revision', '+', 1),
      ...(legal ? { legal_revision: eb('legal_revision', '+', 1) } : {}),
      updated_at: now,
    }))
    .where('id', '=', domainId)
    .execute();
}

import type { Executor } from '../../db/database.js';

/** The domain and its client for a public widget call: (client api key, domain id) in one query. */
export async function findWidgetTarget(db: Executor, apiKey: string, domainId: string) {
  return db
    .selectFrom('domains as d')
    .innerJoin('clients as c', 'c.id', 'd.client_id')
    .selectAll('d')
    .select(['c.widget_display_max_count', 'c.auto_create_domains', 'c.api_key', 'c.features'])
    .where('c.api_key', '=', apiKey)
    .where('d.id', '=', domainId)
    .executeTakeFirst();
}

export async function findDomainOfClientByHost(db: Executor, apiKey: string, host: string) {
  return db
    .selectFrom('domains as d')
    .innerJoin('clients as c', 'c.id', 'd.client_id')
    .select(['d.id'])
    .where('c.api_key', '=', apiKey)
    .where('d.name', '=', host)
    .orderBy('d.path')
    .executeTakeFirst();
}

export async function findClientForAutoCreate(db: Executor, apiKey: string) {
  return db
    .selectFrom('clients')
    .select(['id', 'auto_create_domains'])
    .where('api_key', '=', apiKey)
    .executeTakeFirst();
}

/** Domains of the client created since `sinceIso` (any way): what autoCreateDomains' hourly bound counts. */
export async function countDomainsCreatedSince(db: Executor, clientId: string, sinceIso: string): Promise<number> {
  const row = await db
    .selectFrom('domains')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('client_id', '=', clientId)
    .where('created_at', '>=', sinceIso)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

import type { Ids } from '../deps.js';
import type { Executor } from './database.js';

type ShortIdTable = 'clients' | 'domains' | 'embeddings' | 'assets' | 'themes' | 'account_themes';

/**
 * A 7-hex id not yet used in `table`. The id space (2^28) is small enough that collisions happen at
 * scale, so every id is checked; checking first keeps a PostgreSQL transaction usable (a failed insert
 * would abort it).
 */
export async function newShortId(db: Executor, table: ShortIdTable, ids: Ids): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const id = ids.shortId();
    const taken = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
    if (!taken) return id;
  }
  throw new Error(`no free id in ${table} after 8 attempts`);
}

import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { VideoPreviewRow, VideoPreviewTable } from './video-previews.table.js';

export async function findPreview(db: Executor, provider: string, videoId: string): Promise<VideoPreviewRow | undefined> {
  return db
    .selectFrom('video_previews')
    .selectAll()
    .where('provider', '=', provider)
    .where('video_id', '=', videoId)
    .executeTakeFirst();
}

/** Stores a fetched image or a negative entry; another process's entry for the same video is replaced. */
export async function savePreview(db: Executor, row: VideoPreviewTable): Promise<void> {
  const { provider: _p, video_id: _v, ...rest } = row;
  await db
    .insertInto('video_previews')
    .values(row)
    .onConflict((oc) => oc.columns(['provider', 'video_id']).doUpdateSet(rest))
    .execute();
}

/**
 * Keeps the cache within its bounds: expired entries go first, then the oldest until at most `maxEntries`
 * entries and `maxBytes` bytes of images are left. Runs after each store, and stores are rare (one per video
 * and cache period, and cache misses are rate-limited per address).
 */
export async function evictPreviews(db: Executor, now: string, maxEntries: number, maxBytes: number): Promise<number> {
  const expired = await db.deleteFrom('video_previews').where('expires_at', '<=', now).executeTakeFirst();
  let removed = Number(expired.numDeletedRows);
  const totals = await db
    .selectFrom('video_previews')
    .select([sql<number>`count(*)`.as('entries'), sql<number>`coalesce(sum(size), 0)`.as('bytes')])
    .executeTakeFirstOrThrow();
  let entries = Number(totals.entries);
  let bytes = Number(totals.bytes);
  while (entries > maxEntries || bytes > maxBytes) {
    const oldest = await db
      .selectFrom('video_previews')
      .select(['provider', 'video_id', 'size'])
      .orderBy('fetched_at')
      .orderBy('provider')
      .orderBy('video_id')
      .limit(200)
      .execute();
    const victims: typeof oldest = [];
    for (const row of oldest) {
      if (entries <= maxEntries && bytes <= maxBytes) break;
      victims.push(row);
      entries--;
      bytes -= Number(row.size);
    }
    if (victims.length === 0) break;
    await db
      .deleteFrom('video_previews')
      .where((eb) => eb.or(victims.map((v) => eb.and([eb('provider', '=', v.provider), eb('video_id', '=', v.video_id)]))))
      .execute();
    removed += victims.length;
  }
  return removed;
}

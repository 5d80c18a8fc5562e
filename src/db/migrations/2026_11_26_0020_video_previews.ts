import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  // Preview images of YouTube and Vimeo videos, fetched once and served by Placet (docs/widget.md, "Video
  // previews"). In the database rather than in memory so that every process serves the same entry and the
  // video host is asked once per video and cache period, not once per process. The image is kept as base64
  // text: one portable column type on both engines, and images are small (hqdefault is about 20 KB).
  await db.schema
    .createTable('video_previews')
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('video_id', 'varchar(32)', (c) => c.notNull())
    // null: a negative entry ("no image"), remembered until expires_at so a flood cannot hammer the host.
    .addColumn('content_type', 'varchar(32)')
    .addColumn('body', 'text')
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('fetched_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_previews_pk', ['provider', 'video_id'])
    .execute();
  // Eviction takes the oldest entries first.
  await db.schema.createIndex('video_previews_fetched_at').on('video_previews').column('fetched_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('video_previews').execute();
}

// Photos: the processed images each user uploaded (only processed bytes are ever
// stored), which one is current, and every moderation verdict on them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('photos')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Which storage driver holds the blobs: 'local' (DATA_DIR/blobs) or 'vercel-blob'.
    .addColumn('storage', 'text', (c) => c.notNull().check(sql`storage in ('local', 'vercel-blob')`))
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_url', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('thumbnail_width', 'integer', (c) => c.notNull())
    .addColumn('thumbnail_height', 'integer', (c) => c.notNull())
    // What came in (after the magic-byte check), for the record; the original is never kept.
    .addColumn('original_mime_type', 'text', (c) => c.notNull())
    .addColumn('original_bytes', 'integer', (c) => c.notNull())
    .addColumn('original_width', 'integer', (c) => c.notNull())
    .addColumn('original_height', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('upload', 'register', 'url')`))
    // active: the user's current photo; replaced / cleared / rejected: retired, blobs deleted by a job.
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('active').check(sql`status in ('active', 'replaced', 'cleared', 'rejected')`),
    )
    .addColumn('moderation', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`moderation in ('pending', 'kept', 'removed')`),
    )
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('retired_at', 'timestamptz')
    .addColumn('blobs_deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('photos_user_idx').on('photos').columns(['user_id', 'created_at']).execute();
  // At most one current photo per user, whatever races.
  await sql`create unique index photos_one_active_per_user on photos (user_id) where status = 'active'`.execute(db);

  await db.schema
    .createTable('photo_moderation')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('photo_id', 'uuid', (c) => c.notNull().references('photos.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    // false for the offline 'local' provider: it decodes and inspects, it cannot judge content.
    .addColumn('safety_checked', 'boolean', (c) => c.notNull())
    .addColumn('adult', 'text')
    .addColumn('violence', 'text')
    .addColumn('racy', 'text')
    .addColumn('medical', 'text')
    .addColumn('spoof', 'text')
    .addColumn('face_count', 'integer')
    .addColumn('notes', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('kept', 'removed')`))
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('photo_moderation_photo_idx')
    .on('photo_moderation')
    .columns(['photo_id', 'checked_at'])
    .execute();

  // The user's current photo; photo_url (counted by onboarding) and thumbnail_url are its public URLs.
  await db.schema
    .alterTable('users')
    .addColumn('photo_id', 'uuid', (c) => c.references('photos.id').onDelete('set null'))
    .addColumn('thumbnail_url', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('thumbnail_url').dropColumn('photo_id').execute();
  await db.schema.dropTable('photo_moderation').execute();
  await db.schema.dropTable('photos').execute();
}

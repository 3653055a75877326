// The blob route looks a photo up by its key on every request (is it current, has
// moderation passed?), so the key needs an index. Thumbnail keys are the image key
// with "-t" (lib/photos/storage.ts), so one index serves both. Keys are 128 random
// bits and never reused: unique.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index photos_image_key_idx on photos (image_key)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists photos_image_key_idx`.execute(db);
}

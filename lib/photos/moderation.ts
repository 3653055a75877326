// The background side of photos: moderate each stored photo (SPEC 3.3) and delete
// the blobs of photos that are no longer anyone's. Both are pg-boss jobs; a
// handler that throws is retried with backoff, and both are safe to run twice.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { logLine } from '../core/log';
import { enqueue, QUEUES } from '../jobs/boss';
import { decideAction, type ImageModerationProvider } from '../moderation/images';
import { detachPhoto } from './photos';
import type { BlobStore } from './storage';

export type ModerationOutcome = 'kept' | 'removed' | 'skipped';

/**
 * Sends the stored (processed) image to the provider and records the verdict. On
 * VERY_LIKELY adult, violence or racy the photo is rejected: the user's photoURL is
 * cleared (onboarding incomplete again, out of Discover) and its blobs are deleted.
 * A provider error propagates, so the job is retried and the photo stays as it is.
 */
export async function moderatePhoto(
  db: Database,
  photoId: string,
  deps: { store: BlobStore; provider: ImageModerationProvider },
): Promise<ModerationOutcome> {
  const photo = await db.selectFrom('photos').selectAll().where('id', '=', photoId).executeTakeFirst();
  // Retired since it was queued (replaced or cleared): nothing is shown, nothing to judge.
  if (photo?.status !== 'active' || photo.moderation !== 'pending') return 'skipped';
  const image = await deps.store.get({ key: photo.image_key, url: photo.image_url });
  if (!image) {
    logLine({ event: 'photo_moderation_skipped', photo_id: photoId, reason: 'blob missing' });
    return 'skipped';
  }
  const verdict = await deps.provider.check(image);
  const action = decideAction(verdict);

  return db.transaction().execute(async (trx) => {
    // Lock the user first (as attachPhoto does), then re-read the photo: it may have been replaced meanwhile.
    await trx.selectFrom('users').select('id').where('id', '=', photo.user_id).forUpdate().execute();
    const current = await trx
      .selectFrom('photos')
      .select(['status', 'moderation'])
      .where('id', '=', photoId)
      .forUpdate()
      .executeTakeFirst();
    if (current?.moderation !== 'pending') return 'skipped';
    await trx
      .insertInto('photo_moderation')
      .values({
        photo_id: photoId,
        provider: verdict.provider,
        safety_checked: verdict.safetyChecked,
        adult: verdict.adult,
        violence: verdict.violence,
        racy: verdict.racy,
        medical: verdict.medical,
        spoof: verdict.spoof,
        face_count: verdict.faceCount,
        notes: verdict.notes,
        action,
      })
      .execute();
    await trx.updateTable('photos').set({ moderation: action }).where('id', '=', photoId).execute();
    if (action === 'removed' && current.status === 'active') {
      await detachPhoto(trx, photo.user_id, 'rejected', photoId);
    } else if (action === 'removed') {
      // Already retired: its blobs are queued for deletion anyway; make sure.
      await enqueue(trx, QUEUES.photoDeletion, { photoId });
    }
    logLine({ event: 'photo_moderated', photo_id: photoId, provider: verdict.provider, action });
    return action;
  });
}

/** Deletes the blobs of a retired photo; a no-op for the current photo or when already done. */
export async function deleteRetiredPhotoBlobs(db: Database, photoId: string, store: BlobStore): Promise<boolean> {
  const photo = await db.selectFrom('photos').selectAll().where('id', '=', photoId).executeTakeFirst();
  if (!photo || photo.status === 'active' || photo.blobs_deleted_at) return false;
  await store.delete([
    { key: photo.image_key, url: photo.image_url },
    { key: photo.thumbnail_key, url: photo.thumbnail_url },
  ]);
  await db.updateTable('photos').set({ blobs_deleted_at: sql`now()` }).where('id', '=', photoId).execute();
  return true;
}

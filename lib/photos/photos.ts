// The photo domain: turn what a caller sent (inline bytes or a URL) into stored,
// processed blobs, then attach them to the user in the caller's transaction.
// Blobs are written before the transaction and removed again if it fails, so a
// request either leaves a complete photo behind or nothing at all.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { PhotoRow, PhotoSource, PhotoStatus, UserRow } from '@/db/types';
import { recordAgentAction, type Attribution } from '../attribution/attribution';
import type { PhotoRecord, UploadPhotoBody } from '../contract/photos';
import { notFound } from '../core/errors';
import { logError } from '../core/log';
import { enqueue, QUEUES } from '../jobs/boss';
import { missingFields } from '../completeness/completeness';
import { fetchPhotoUrl } from './fetch-url';
import { processPhoto, type ProcessedPhoto } from './image';
import { decodeInlinePhoto } from './input';
import type { PhotoServices } from './services';
import { newPhotoKeys, type BlobRef, type BlobStore } from './storage';

export type PhotoInput =
  | { kind: 'inline'; photo: string; mimeType: string | null | undefined; field: string }
  | { kind: 'url'; url: string; field: string };

export interface StoredPhoto {
  driver: BlobStore['driver'];
  image: BlobRef;
  thumbnail: BlobRef;
  processed: Omit<ProcessedPhoto, 'image' | 'thumbnail'> & {
    image: { width: number; height: number; bytes: number };
    thumbnail: { width: number; height: number };
  };
}

/** Decodes or downloads, checks, processes and stores one photo. Throws ApiError for bad input. */
export async function preparePhoto(input: PhotoInput, services: PhotoServices): Promise<StoredPhoto> {
  const { bytes, declaredType } =
    input.kind === 'inline'
      ? decodeInlinePhoto(input.photo, input.mimeType, input.field)
      : { bytes: await fetchPhotoUrl(input.url, services.fetchPolicy, input.field), declaredType: null };
  const processed = await processPhoto(bytes, declaredType, input.field, services.processing);
  const keys = newPhotoKeys();
  const image = await services.store.put(keys.image, processed.image.data, processed.mimeType);
  let thumbnail: BlobRef;
  try {
    thumbnail = await services.store.put(keys.thumbnail, processed.thumbnail.data, processed.mimeType);
  } catch (error) {
    await services.store.delete([image]).catch(() => {});
    throw error;
  }
  return {
    driver: services.store.driver,
    image,
    thumbnail,
    processed: {
      mimeType: processed.mimeType,
      original: processed.original,
      image: { width: processed.image.width, height: processed.image.height, bytes: processed.image.data.length },
      thumbnail: { width: processed.thumbnail.width, height: processed.thumbnail.height },
    },
  };
}

/**
 * Runs `work` (the transaction that references `stored`); if it fails the blobs
 * are deleted again, so a failed request leaves no orphan files behind.
 */
export async function withStoredPhoto<T>(
  stored: StoredPhoto | null,
  store: BlobStore,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (stored) {
      await store.delete([stored.image, stored.thumbnail]).catch((cleanup: unknown) => {
        logError('could not delete the blobs of an abandoned photo', cleanup, {
          keys: [stored.image.key, stored.thumbnail.key],
        });
      });
    }
    throw error;
  }
}

async function lockUser(trx: Database, userId: string): Promise<UserRow> {
  const row = await trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
  if (!row) throw notFound('User');
  return row;
}

/** Sets the user's photo columns and recomputes completeness from the result. */
async function setUserPhoto(
  trx: Database,
  current: UserRow,
  photo: { id: string; url: string; thumbnailUrl: string } | null,
): Promise<UserRow> {
  const columns = {
    photo_id: photo?.id ?? null,
    photo_url: photo?.url ?? null,
    thumbnail_url: photo?.thumbnailUrl ?? null,
  };
  const complete = missingFields({ ...current, ...columns }).length === 0;
  return trx
    .updateTable('users')
    .set({ ...columns, onboarding_complete: complete, updated_at: sql`now()` })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Retires a photo (it stops being anyone's current photo) and queues the deletion of its blobs. */
async function retirePhoto(trx: Database, photoId: string, status: Exclude<PhotoStatus, 'active'>): Promise<void> {
  const retired = await trx
    .updateTable('photos')
    .set({ status, retired_at: sql`now()` })
    .where('id', '=', photoId)
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  if (retired) await enqueue(trx, QUEUES.photoDeletion, { photoId });
}

/**
 * Inside the caller's transaction: records the photo, makes it the user's current
 * one (retiring the previous), recomputes onboarding and queues moderation.
 */
export async function attachPhoto(
  trx: Database,
  userId: string,
  stored: StoredPhoto,
  meta: { source: PhotoSource } & Attribution,
): Promise<{ photo: PhotoRow; user: UserRow }> {
  const current = await lockUser(trx, userId);
  if (current.photo_id) await retirePhoto(trx, current.photo_id, 'replaced');
  const { processed } = stored;
  const photo = await trx
    .insertInto('photos')
    .values({
      user_id: userId,
      storage: stored.driver,
      image_key: stored.image.key,
      image_url: stored.image.url,
      thumbnail_key: stored.thumbnail.key,
      thumbnail_url: stored.thumbnail.url,
      mime_type: processed.mimeType,
      width: processed.image.width,
      height: processed.image.height,
      bytes: processed.image.bytes,
      thumbnail_width: processed.thumbnail.width,
      thumbnail_height: processed.thumbnail.height,
      original_mime_type: processed.original.mimeType,
      original_bytes: processed.original.bytes,
      original_width: processed.original.width,
      original_height: processed.original.height,
      source: meta.source,
      agent_name: meta.agentName ?? null,
      agent_session_id: meta.agentSessionId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const user = await setUserPhoto(trx, current, {
    id: photo.id,
    url: photo.image_url,
    thumbnailUrl: photo.thumbnail_url,
  });
  await enqueue(trx, QUEUES.photoModeration, { photoId: photo.id });
  return { photo, user };
}

/**
 * Inside the caller's transaction: takes the user's photo away (cleared by the
 * user, or rejected by moderation). Only `photoId`, when given, is removed, so a
 * late verdict on an old photo never clears a newer one.
 */
export async function detachPhoto(
  trx: Database,
  userId: string,
  status: 'cleared' | 'rejected',
  photoId?: string,
): Promise<UserRow> {
  const current = await lockUser(trx, userId);
  if (photoId !== undefined && current.photo_id !== photoId) {
    await retirePhoto(trx, photoId, status);
    return current;
  }
  if (current.photo_id) await retirePhoto(trx, current.photo_id, status);
  return setUserPhoto(trx, current, null);
}

/** POST /api/v1/me/photo.json */
export async function saveUploadedPhoto(
  db: Database,
  userId: string,
  body: UploadPhotoBody,
  services: PhotoServices,
): Promise<{ photo: PhotoRow; user: UserRow }> {
  const stored = await preparePhoto(
    { kind: 'inline', photo: body.photo, mimeType: body.mimeType, field: 'photo' },
    services,
  );
  return withStoredPhoto(stored, services.store, () =>
    db.transaction().execute(async (trx) => {
      const result = await attachPhoto(trx, userId, stored, { source: 'upload', ...body });
      await recordAgentAction(trx, userId, 'upload_photo', body);
      return result;
    }),
  );
}

export function toPhotoRecord(row: PhotoRow): PhotoRecord {
  return {
    id: row.id,
    photoURL: row.image_url,
    thumbnailURL: row.thumbnail_url,
    mimeType: row.mime_type,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    thumbnail: { width: row.thumbnail_width, height: row.thumbnail_height },
    source: row.source,
    status: row.status,
    moderation: row.moderation,
    created_at: new Date(row.created_at).toISOString(),
  };
}

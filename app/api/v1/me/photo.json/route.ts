import { config } from '@/lib/config';
import { eitherName } from '@/lib/contract/forgiving';
import * as photos from '@/lib/contract/photos';
import { route } from '@/lib/http/route';
import { saveUploadedPhoto, toPhotoRecord } from '@/lib/photos/photos';
import { photoServicesFrom } from '@/lib/photos/services';
import { onboardingStatus } from '@/lib/profiles/profile';

// POST /api/v1/me/photo.json – upload or replace the caller's photo
export const POST = route(photos.uploadPhoto, async ({ db, auth, body, normalized }) => {
  const notes = [...normalized];
  const mimeType = eitherName<photos.UploadPhotoBody['mimeType']>(body, 'mimeType', 'photoMimeType', notes);
  const { photo, user } = await saveUploadedPhoto(db, auth.userId, { ...body, mimeType }, photoServicesFrom(config()));
  const { next_action_for_user, ...onboarding } = onboardingStatus(user);
  const warnings = notes.length > 0 ? { normalized: notes } : {};
  return {
    success: true as const,
    photo: toPhotoRecord(photo),
    onboarding,
    warnings,
    next_action_for_user,
  };
});

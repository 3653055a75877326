import type { Database } from '@/db';
import { config } from '@/lib/config';
import { deleteAccount } from '@/lib/accounts/delete';
import * as profiles from '@/lib/contract/profiles';
import * as signin from '@/lib/contract/signin';
import { Reply, route } from '@/lib/http/route';
import { mergeRateLimitHeaders, rateLimitState } from '@/lib/limits/rate-limits';
import { photoServicesFrom } from '@/lib/photos/services';
import { getUserOrThrow, updateProfile } from '@/lib/profiles/profile';
import { coordsAudience, toOwnProfile } from '@/lib/profiles/records';
import { onboardingOf } from '@/lib/profiles/onboarding';

// GET /api/v1/me.json – the caller's own profile
export const GET = route(profiles.getMe, async ({ db, auth, baseUrl }) => ({
  profile: toOwnProfile(await getUserOrThrow(db, auth.userId), baseUrl, coordsAudience(auth)),
}));

// PATCH /api/v1/me.json – partial profile update
export const PATCH = route(profiles.updateMe, async ({ db, auth, body, baseUrl, normalized }) => {
  const { row, warnings } = await updateProfile(db, auth.userId, body, {
    photos: photoServicesFrom(config()),
    geocoderEnabled: !!config().geocoderUrl,
    locationChangeLimit: config().rateLimits.location_change,
    photoUploadLimit: config().rateLimits.photo_upload,
    normalized,
  });
  const updated = {
    success: true as const,
    profile: toOwnProfile(row, baseUrl, coordsAudience(auth)),
    onboarding: onboardingOf(row),
    warnings,
  };
  return new Reply(updated, { headers: await profileRateLimits(db, auth.userId) });
});

// DELETE /api/v1/me.json – delete the account for good (password, or a fresh web sign-in)
export const DELETE = route(signin.deleteMyAccount, async ({ db, auth, body, ip }) => ({
  success: true as const,
  ...(await deleteAccount(
    db,
    auth.userId,
    { password: body.password, sessionId: auth.via === 'session' ? auth.sessionId : null },
    { ip, limits: config().signinFailureLimits },
  )),
}));

/** The two limits a profile update may count against: moves of the coordinates and new photoURLs. */
async function profileRateLimits(db: Database, userId: string) {
  const { location_change, photo_upload } = config().rateLimits;
  return mergeRateLimitHeaders(
    await rateLimitState(db, 'location_change', location_change, userId),
    await rateLimitState(db, 'photo_upload', photo_upload, userId),
  );
}

import { lagTolerantDb } from '@/db/replicas';
import * as profiles from '@/lib/contract/profiles';
import { optionalCaller, route } from '@/lib/http/route';
import { getActiveUserOrThrow } from '@/lib/profiles/profile';
import { toPublicProfile } from '@/lib/profiles/records';
import { profileViewFor } from '@/lib/profiles/viewer';

// GET /api/v1/users/{slug}/profile.json – a profile by slug or id: the public view without
// credentials, the member view for a signed-in caller (a bad token is a 401, not a stranger).
// The profile may come from a replica; the caller and blocks always from the primary.
export const GET = route(profiles.getPublicProfile, async ({ db, params, baseUrl, request }) => {
  const caller = await optionalCaller(db, request, 'profile:read');
  const viewerId = caller?.userId ?? null;
  const row = await getActiveUserOrThrow(db, await lagTolerantDb(viewerId), params.slug, viewerId);
  return { profile: toPublicProfile(row, baseUrl, await profileViewFor(db, viewerId, row)) };
});

import { getPublicProfile } from '@/lib/contract/profiles';
import { route } from '@/lib/http/route';
import { getUserBySlugOrIdOrThrow } from '@/lib/profiles/profile';
import { toPublicProfile } from '@/lib/profiles/records';

// GET /api/v1/users/{slug}/profile.json – a public profile by slug or id
export const GET = route(getPublicProfile, async ({ db, params, baseUrl }) => ({
  profile: toPublicProfile(await getUserBySlugOrIdOrThrow(db, params.slug), baseUrl),
}));

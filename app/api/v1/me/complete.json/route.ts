import * as profiles from '@/lib/contract/profiles';
import { route } from '@/lib/http/route';
import { completeOnboarding, getUserOrThrow, onboardingStatus } from '@/lib/profiles/profile';

// GET /api/v1/me/complete.json – which onboarding fields are missing
export const GET = route(profiles.getOnboarding, async ({ db, auth }) =>
  onboardingStatus(await getUserOrThrow(db, auth.userId)),
);

// POST /api/v1/me/complete.json – confirm onboarding; 422 while fields are missing
export const POST = route(profiles.completeOnboarding, async ({ db, auth }) => ({
  success: true as const,
  ...(await completeOnboarding(db, auth.userId)),
}));

import { reportUser } from '@/lib/buddies/reports';
import * as safety from '@/lib/contract/safety';
import { route } from '@/lib/http/route';

// POST /api/v1/users/{slug}/report.json – report someone to the moderators
export const POST = route(safety.reportUser, async ({ db, auth, params, body, normalized }) => {
  const result = await reportUser(db, { viewerId: auth.userId, slugOrId: params.slug, body });
  // A reason given in plain words is said back as understood.
  return normalized.length > 0 ? { ...result, warnings: { normalized } } : result;
});

import { reportUser } from '@/lib/buddies/reports';
import { reportUser as reportSpec } from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// POST /api/v1/users/{slug}/report.json – report someone to the moderators
export const POST = route(reportSpec, async ({ db, auth, params, body }) => reportUser(db, auth.userId, params.slug, body));

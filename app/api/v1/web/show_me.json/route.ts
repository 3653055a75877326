import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { showMeToPeople } from '@/lib/profiles/consent';

// POST /api/v1/web/show_me.json – "Yes, show me to people nearby" (web session only)
export const POST = route(webApp.showMe, async ({ db, auth }) => showMeToPeople(db, auth.userId));

import * as webApp from '@/lib/contract/web-app';
import { personOnly, route } from '@/lib/http/route';
import { SHOW_ME_HINT, showMeToPeople } from '@/lib/profiles/consent';

// POST /api/v1/web/show_me.json – "Yes, show me to people nearby" (web session only)
export const POST = route(webApp.showMe, async ({ db, auth }) => showMeToPeople(db, personOnly(auth, SHOW_ME_HINT)));

import * as webApp from '@/lib/contract/web-app';
import { discoverTeaser } from '@/lib/discover/teaser';
import { route } from '@/lib/http/route';

// GET /api/v1/web/discover_teaser.json – what Discover shows an incomplete profile: a rounded count, no one named
export const GET = route(webApp.discoverTeaser, ({ db, auth }) => discoverTeaser(db, auth.userId));

import { lagTolerantDb } from '@/db/replicas';
import { config } from '@/lib/config';
import * as events from '@/lib/contract/events';
import { eventsFeed, feedSettings } from '@/lib/events/feed';
import { conditionalReply } from '@/lib/http/conditional';
import { route } from '@/lib/http/route';

// GET /api/v1/events.json – local events from the built-in directory (on a replica when one
// is healthy: it changes only when feeds are imported) or the upstream
export const GET = route(events.listEvents, async ({ query, request }) => {
  const feed = await eventsFeed(await lagTolerantDb(null), query, feedSettings(config().events));
  return conditionalReply(request, feed.body, { etag: feed.etag, cacheControl: feed.cacheControl });
});

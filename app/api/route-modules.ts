// Generated from the contract table by scripts/route-modules.ts (npm run build): do not edit.
// A contract path's route module is the route.ts in the folder named like the path.

/** A route.ts module: its exports, GET, POST and so on among them. */
export type RouteModule = Partial<Record<string, unknown>>;
export type RouteModules = Readonly<Record<string, () => Promise<RouteModule>>>;

/** Paths whose folder under app/ is the path itself ({name} as [name]): the node server answers them directly. */
export const ROUTE_MODULES: RouteModules = {
  '/api/v1/index.json': () => import('./v1/index.json/route'),
  '/api/v1/register.json': () => import('./v1/register.json/route'),
  '/api/v1/activities.json': () => import('./v1/activities.json/route'),
  '/api/health': () => import('./health/route'),
  '/api/v1/me.json': () => import('./v1/me.json/route'),
  '/api/v1/me/complete.json': () => import('./v1/me/complete.json/route'),
  '/api/v1/users/{slug}/profile.json': () => import('./v1/users/[slug]/profile.json/route'),
  '/api/v1/availability/parse.json': () => import('./v1/availability/parse.json/route'),
  '/api/v1/me/tokens.json': () => import('./v1/me/tokens.json/route'),
  '/api/v1/me/tokens/{tokenId}/revoke.json': () => import('./v1/me/tokens/[tokenId]/revoke.json/route'),
  '/api/v1/me/password.json': () => import('./v1/me/password.json/route'),
  '/api/v1/signin/link.json': () => import('./v1/signin/link.json/route'),
  '/api/v1/me/export.json': () => import('./v1/me/export.json/route'),
  '/api/v1/me/photo.json': () => import('./v1/me/photo.json/route'),
  '/api/v1/users/{slug}/buddy_request.json': () => import('./v1/users/[slug]/buddy_request.json/route'),
  '/api/v1/buddy_requests.json': () => import('./v1/buddy_requests.json/route'),
  '/api/v1/buddy_requests/{invitationId}/accept.json': () =>
    import('./v1/buddy_requests/[invitationId]/accept.json/route'),
  '/api/v1/buddy_requests/{invitationId}/decline.json': () =>
    import('./v1/buddy_requests/[invitationId]/decline.json/route'),
  '/api/v1/buddy_requests/{invitationId}/cancel.json': () =>
    import('./v1/buddy_requests/[invitationId]/cancel.json/route'),
  '/api/v1/inbox.json': () => import('./v1/inbox.json/route'),
  '/api/v1/chats.json': () => import('./v1/chats.json/route'),
  '/api/v1/chats/{chatId}/messages.json': () => import('./v1/chats/[chatId]/messages.json/route'),
  '/api/v1/chats/{chatId}/read.json': () => import('./v1/chats/[chatId]/read.json/route'),
  '/api/v1/users/{slug}/block.json': () => import('./v1/users/[slug]/block.json/route'),
  '/api/v1/me/blocks.json': () => import('./v1/me/blocks.json/route'),
  '/api/v1/users/{slug}/report.json': () => import('./v1/users/[slug]/report.json/route'),
  '/api/v1/me/push_tokens.json': () => import('./v1/me/push_tokens.json/route'),
  '/api/v1/users/{slug}/plan_options.json': () => import('./v1/users/[slug]/plan_options.json/route'),
  '/api/v1/chats/{chatId}/plans.json': () => import('./v1/chats/[chatId]/plans.json/route'),
  '/api/v1/plans/{planId}/accept.json': () => import('./v1/plans/[planId]/accept.json/route'),
  '/api/v1/plans/{planId}/decline.json': () => import('./v1/plans/[planId]/decline.json/route'),
  '/api/v1/plans/{planId}/cancel.json': () => import('./v1/plans/[planId]/cancel.json/route'),
  '/api/v1/plans.json': () => import('./v1/plans.json/route'),
  '/api/v1/plans/read_time.json': () => import('./v1/plans/read_time.json/route'),
  '/api/v1/events.json': () => import('./v1/events.json/route'),
  '/api/v1/discover.json': () => import('./v1/discover.json/route'),
  '/api/v1/users/{slug}/overlap.json': () => import('./v1/users/[slug]/overlap.json/route'),
  '/api/v1/meetups.json': () => import('./v1/meetups.json/route'),
  '/api/v1/meetups/{meetupId}/join.json': () => import('./v1/meetups/[meetupId]/join.json/route'),
  '/api/v1/meetups/{meetupId}/leave.json': () => import('./v1/meetups/[meetupId]/leave.json/route'),
  '/api/v1/meetups/{meetupId}/cancel.json': () => import('./v1/meetups/[meetupId]/cancel.json/route'),
  '/api/v1/meetups/{meetupId}/approve.json': () => import('./v1/meetups/[meetupId]/approve.json/route'),
  '/api/v1/meetups/{meetupId}/decline.json': () => import('./v1/meetups/[meetupId]/decline.json/route'),
  '/api/v1/meetups/{meetupId}/attendance.json': () => import('./v1/meetups/[meetupId]/attendance.json/route'),
  '/api/v1/web/signup.json': () => import('./v1/web/signup.json/route'),
  '/api/v1/web/show_me.json': () => import('./v1/web/show_me.json/route'),
  '/api/v1/web/discover_teaser.json': () => import('./v1/web/discover_teaser.json/route'),
  '/api/v1/me/web_push.json': () => import('./v1/me/web_push.json/route'),
  '/api/v1/chats/{chatId}/mute.json': () => import('./v1/chats/[chatId]/mute.json/route'),
  '/api/v1/plans/{planId}/review.json': () => import('./v1/plans/[planId]/review.json/route'),
  '/api/v1/me/calendar_feed.json': () => import('./v1/me/calendar_feed.json/route'),
  '/api/v1/me/mail_preferences.json': () => import('./v1/me/mail_preferences.json/route'),
  '/api/v1/mail/unsubscribe.json': () => import('./v1/mail/unsubscribe.json/route'),
  '/api/v1/plans/{planId}/share.json': () => import('./v1/plans/[planId]/share.json/route'),
  '/api/v1/plans/{planId}/checkin.json': () => import('./v1/plans/[planId]/checkin.json/route'),
  '/api/v1/meetups/{meetupId}/share.json': () => import('./v1/meetups/[meetupId]/share.json/route'),
  '/api/v1/meetups/{meetupId}/checkin.json': () => import('./v1/meetups/[meetupId]/checkin.json/route'),
};

/** Paths ending in {name}.json or {name}.ics: the [name] folder's route serves them (over HTTP, through Next.js). */
export const SUFFIXED_ROUTE_MODULES: RouteModules = {
  '/api/v1/plans/{planId}.json': () => import('./v1/plans/[planId]/route'),
  '/api/v1/meetups/{meetupId}.json': () => import('./v1/meetups/[meetupId]/route'),
  '/api/v1/plans/{planId}.ics': () => import('./v1/plans/[planId]/route'),
  '/api/v1/meetups/{meetupId}.ics': () => import('./v1/meetups/[meetupId]/route'),
  '/api/v1/calendar/{secret}.ics': () => import('./v1/calendar/[secret]/route'),
};

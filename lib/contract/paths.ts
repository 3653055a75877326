// The API's paths, in one table with no dependencies: the contract declares each endpoint's
// `path` from it (an OpenAPI-style template such as /api/v1/chats/{chatId}/messages.json),
// and the web pages build their URLs from the same entry (`paths.messages({ chatId })`), so
// a page cannot call a path the contract does not serve, and the browser gets no zod.
// The parameters a builder takes are read from its template's `{names}` by the compiler.

export const API_PATHS = {
  health: '/api/health',
  index: '/api/v1/index.json',
  register: '/api/v1/register.json',
  webSignup: '/api/v1/web/signup.json',
  discoverTeaser: '/api/v1/web/discover_teaser.json',
  showMe: '/api/v1/web/show_me.json',
  activities: '/api/v1/activities.json',
  discover: '/api/v1/discover.json',
  overlap: '/api/v1/users/{slug}/overlap.json',
  events: '/api/v1/events.json',
  me: '/api/v1/me.json',
  photo: '/api/v1/me/photo.json',
  complete: '/api/v1/me/complete.json',
  profile: '/api/v1/users/{slug}/profile.json',
  parseAvailability: '/api/v1/availability/parse.json',
  tokens: '/api/v1/me/tokens.json',
  revokeToken: '/api/v1/me/tokens/{tokenId}/revoke.json',
  password: '/api/v1/me/password.json',
  exportData: '/api/v1/me/export.json',
  signinLink: '/api/v1/signin/link.json',
  buddyRequest: '/api/v1/users/{slug}/buddy_request.json',
  buddyRequests: '/api/v1/buddy_requests.json',
  acceptRequest: '/api/v1/buddy_requests/{invitationId}/accept.json',
  declineRequest: '/api/v1/buddy_requests/{invitationId}/decline.json',
  cancelRequest: '/api/v1/buddy_requests/{invitationId}/cancel.json',
  chats: '/api/v1/chats.json',
  messages: '/api/v1/chats/{chatId}/messages.json',
  read: '/api/v1/chats/{chatId}/read.json',
  mute: '/api/v1/chats/{chatId}/mute.json',
  inbox: '/api/v1/inbox.json',
  block: '/api/v1/users/{slug}/block.json',
  blocks: '/api/v1/me/blocks.json',
  report: '/api/v1/users/{slug}/report.json',
  pushTokens: '/api/v1/me/push_tokens.json',
  webPush: '/api/v1/me/web_push.json',
  planOptions: '/api/v1/users/{slug}/plan_options.json',
  chatPlans: '/api/v1/chats/{chatId}/plans.json',
  plans: '/api/v1/plans.json',
  planTime: '/api/v1/plans/read_time.json',
  plan: '/api/v1/plans/{planId}.json',
  acceptPlan: '/api/v1/plans/{planId}/accept.json',
  declinePlan: '/api/v1/plans/{planId}/decline.json',
  cancelPlan: '/api/v1/plans/{planId}/cancel.json',
  planCalendar: '/api/v1/plans/{planId}.ics',
  planShare: '/api/v1/plans/{planId}/share.json',
  planCheckin: '/api/v1/plans/{planId}/checkin.json',
  reviewPlan: '/api/v1/plans/{planId}/review.json',
  calendarFeed: '/api/v1/me/calendar_feed.json',
  calendarFeedFile: '/api/v1/calendar/{secret}.ics',
  mailPreferences: '/api/v1/me/mail_preferences.json',
  unsubscribe: '/api/v1/mail/unsubscribe.json',
  meetups: '/api/v1/meetups.json',
  meetup: '/api/v1/meetups/{meetupId}.json',
  meetupCalendar: '/api/v1/meetups/{meetupId}.ics',
  joinMeetup: '/api/v1/meetups/{meetupId}/join.json',
  leaveMeetup: '/api/v1/meetups/{meetupId}/leave.json',
  cancelMeetup: '/api/v1/meetups/{meetupId}/cancel.json',
  approveMeetupJoin: '/api/v1/meetups/{meetupId}/approve.json',
  declineMeetupJoin: '/api/v1/meetups/{meetupId}/decline.json',
  meetupAttendance: '/api/v1/meetups/{meetupId}/attendance.json',
  meetupShare: '/api/v1/meetups/{meetupId}/share.json',
  meetupCheckin: '/api/v1/meetups/{meetupId}/checkin.json',
} as const;

export type PathName = keyof typeof API_PATHS;
export type PathTemplate = (typeof API_PATHS)[PathName];

/** The `{names}` in a path template, as a union ('chatId'); never when it has none. */
export type ParamNames<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** What fills a template: one string per `{name}` (any names when the template is only known as a string). */
export type PathParams<T extends string> = string extends T
  ? Readonly<Record<string, string>>
  : { readonly [K in ParamNames<T>]: string };

/** A template with each `{name}` filled: '/api/v1/chats/{chatId}/read.json' → `/api/v1/chats/${string}/read.json`. */
export type FilledPath<T extends string> = T extends `${infer Head}{${string}}${infer Rest}`
  ? `${Head}${string}${FilledPath<Rest>}`
  : T;

/** Fills each `{name}` in `template` with `params[name]`, percent-encoded; a missing one throws. */
export function fill<const T extends string>(template: T, params: PathParams<T>): FilledPath<T> {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = (params as Readonly<Record<string, string | undefined>>)[name];
    if (value === undefined) throw new Error(`${template}: missing path parameter ${name}`);
    return encodeURIComponent(value);
  }) as FilledPath<T>;
}

type PathBuilder<T extends string> = [ParamNames<T>] extends [never]
  ? () => T
  : (params: PathParams<T>) => FilledPath<T>;
export type PathBuilders = { readonly [K in PathName]: PathBuilder<(typeof API_PATHS)[K]> };

/** A builder per path: `paths.chats()`, `paths.messages({ chatId })`. */
export const paths = Object.fromEntries(
  Object.entries(API_PATHS).map(([name, template]) => [
    name,
    (params: Readonly<Record<string, string>> = {}) => fill(template, params),
  ]),
) as unknown as PathBuilders;

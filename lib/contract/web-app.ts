// Endpoints only the web app calls, with the person's session cookie: Web Push needs a
// browser's service worker, so agents have no use for them. They are routed, parsed and
// answered like every endpoint, but left out of what agents read (OpenAPI, the endpoint
// index, the MCP tools, llms.txt), which keeps those within their size budgets.
import { z } from 'zod';
import { register, registerResponseSchema } from './accounts';
import { defineEndpoint } from './define';
import { PLAN_REVIEW_OUTCOMES } from './limits';
import { onboardingSchema } from './schemas';
import { API_PATHS } from './paths';
import { singleLine } from './text';

const base64url = (max: number) =>
  singleLine()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url');

// The pages where the person does what only they may do (personOnly): a bearer token's 403 names them.
const PLAN_PAGE =
  'Sharing a plan, its check-in and "Did you meet?" are the person’s own: send them to the plan’s page in the web app, /account/plans/{planId}.';
const MEETUP_PAGE =
  'Sharing a meetup and its check-in are the person’s own: send them to the meetup’s page in the web app, /account/meetups/{meetupId}.';
const CALENDAR_FEED_PAGE =
  'The private calendar feed is the person’s own: send them to Settings in the web app, /account/settings.';
/** What the person says no assistant can say for them (the web app's button and the guides quote it). */
export const SHOW_ME_HINT =
  'Only the person can let their profile be seen: ask them to sign in on the web (the sign-in link in their email works) and choose "Yes, show me to people nearby".';

/** PushSubscription.toJSON() as browsers give it (W3C Push API). */
export const webPushSubscriptionSchema = z.object({
  endpoint: singleLine().min(1).max(2048),
  keys: z.object({ p256dh: base64url(200), auth: base64url(50) }),
  expirationTime: z.number().nullish(),
});

export const subscribeWebPush = defineEndpoint({
  id: 'subscribe_web_push',
  method: 'POST',
  path: API_PATHS.webPush,
  auth: 'profile:write',
  tags: ['notifications'],
  summary: 'Send new messages and buddy requests to this browser (Web Push)',
  description:
    'The browser’s PushSubscription (endpoint and keys). The endpoint must be an https push service; it is kept until the ' +
    'person turns notifications off or the push service says it is gone. At most 10 browsers per person: the oldest goes.',
  body: webPushSubscriptionSchema,
  status: 201,
  response: z.object({
    success: z.literal(true),
    browsers: z.number().int().describe('Browsers that now get notifications'),
  }),
  errors: ['validation_failed'],
});

export const unsubscribeWebPush = defineEndpoint({
  id: 'unsubscribe_web_push',
  method: 'DELETE',
  path: API_PATHS.webPush,
  auth: 'profile:write',
  tags: ['notifications'],
  summary: 'Stop notifications to this browser',
  body: z.object({ endpoint: singleLine().min(1).max(2048) }),
  response: z.object({ success: z.literal(true), removed: z.boolean() }),
  errors: ['validation_failed'],
});

export const muteChat = defineEndpoint({
  id: 'mute_chat',
  method: 'POST',
  path: API_PATHS.mute,
  auth: 'message:write',
  tags: ['chats'],
  summary: 'Mute or unmute notifications for one chat',
  params: z.object({ chatId: singleLine().min(1).max(80) }),
  body: z.strictObject({ muted: z.boolean() }),
  response: z.object({ success: z.literal(true), chatId: z.string(), muted: z.boolean() }),
  errors: ['validation_failed', 'not_found'],
});

// Calendars (issue 29, section 4). The contract speaks JSON, and these answer text/calendar,
// so they are the web app's (and calendar apps') endpoints; a bearer token with buddy:read
// may fetch a plan's .ics all the same.
const ics = z.string().describe('text/calendar (RFC 5545)');

export const planCalendar = defineEndpoint({
  id: 'plan_calendar',
  method: 'GET',
  path: API_PATHS.planCalendar,
  auth: 'buddy:read',
  tags: ['plans'],
  summary: 'One plan as an iCalendar file',
  params: z.object({
    planId: singleLine()
      .min(1)
      .max(80)
      .transform((value) => value.replace(/\.ics$/, '')),
  }),
  response: ics,
  errors: ['not_found'],
});

export const meetupCalendar = defineEndpoint({
  id: 'meetup_calendar',
  method: 'GET',
  path: API_PATHS.meetupCalendar,
  auth: 'buddy:read',
  tags: ['meetups'],
  summary: 'One meetup as an iCalendar file',
  params: z.object({
    meetupId: singleLine()
      .min(1)
      .max(80)
      .transform((value) => value.replace(/\.ics$/, '')),
  }),
  response: ics,
  errors: ['not_found'],
});

export const calendarFeedFile = defineEndpoint({
  id: 'calendar_feed_file',
  method: 'GET',
  path: API_PATHS.calendarFeedFile,
  auth: 'none',
  tags: ['plans'],
  summary: 'A person’s private calendar feed (the secret in the path is the credential)',
  params: z.object({
    secret: singleLine()
      .min(1)
      .max(200)
      .transform((value) => value.replace(/\.ics$/, '')),
  }),
  response: ics,
  errors: ['not_found'],
});

const calendarFeedState = z.object({
  success: z.literal(true),
  on: z.boolean(),
  created_at: z.string().nullable(),
  /** Only in the answer that made it: the secret is stored hashed, so it cannot be shown again. */
  url: z.string().nullable(),
  webcal_url: z.string().nullable(),
});

export const getCalendarFeed = defineEndpoint({
  id: 'get_calendar_feed',
  method: 'GET',
  path: API_PATHS.calendarFeed,
  auth: 'buddy:read',
  personOnly: { hint: CALENDAR_FEED_PAGE },
  tags: ['plans'],
  summary: 'Whether your private calendar feed is on',
  response: calendarFeedState,
});

export const rotateCalendarFeed = defineEndpoint({
  id: 'rotate_calendar_feed',
  method: 'POST',
  path: API_PATHS.calendarFeed,
  auth: 'profile:write',
  personOnly: { hint: CALENDAR_FEED_PAGE },
  tags: ['plans'],
  summary: 'Turn the calendar feed on, or give it a new secret URL (the old one stops working)',
  bodyOptional: true,
  body: z.object({}),
  status: 201,
  response: calendarFeedState,
});

export const revokeCalendarFeed = defineEndpoint({
  id: 'revoke_calendar_feed',
  method: 'DELETE',
  path: API_PATHS.calendarFeed,
  auth: 'profile:write',
  personOnly: { hint: CALENDAR_FEED_PAGE },
  tags: ['plans'],
  summary: 'Turn the calendar feed off (its URL answers 404)',
  bodyOptional: true,
  body: z.object({}),
  response: calendarFeedState,
});

// "Did you meet?" (issue 29, section 7): the person's private answer after a plan, never shown to the other.
export const reviewPlan = defineEndpoint({
  id: 'review_plan',
  method: 'POST',
  path: API_PATHS.reviewPlan,
  auth: 'buddy:write',
  personOnly: { hint: PLAN_PAGE },
  tags: ['plans'],
  summary: 'Say privately whether you met, after a confirmed plan ended',
  params: z.object({ planId: singleLine().min(1).max(80) }),
  body: z.strictObject({ outcome: z.enum(PLAN_REVIEW_OUTCOMES) }),
  response: z.object({ success: z.literal(true), planId: z.string(), outcome: z.enum(PLAN_REVIEW_OUTCOMES) }),
  errors: ['validation_failed', 'not_found', 'plan_not_open'],
});

// Optional mail (reminders now; check-ins and digests share the model and the unsubscribe).
const mailPreferences = z.object({ reminders: z.boolean(), checkins: z.boolean(), digests: z.boolean() });

export const getMailPreferences = defineEndpoint({
  id: 'get_mail_preferences',
  method: 'GET',
  path: API_PATHS.mailPreferences,
  auth: 'profile:read',
  tags: ['notifications'],
  summary: 'Which optional mail you get',
  response: mailPreferences,
});

export const updateMailPreferences = defineEndpoint({
  id: 'update_mail_preferences',
  method: 'PATCH',
  path: API_PATHS.mailPreferences,
  auth: 'profile:write',
  tags: ['notifications'],
  summary: 'Turn optional mail on or off',
  body: mailPreferences.partial().strict(),
  response: mailPreferences,
  errors: ['validation_failed'],
});

export const unsubscribeMail = defineEndpoint({
  id: 'unsubscribe_mail',
  method: 'POST',
  path: API_PATHS.unsubscribe,
  auth: 'none',
  tags: ['notifications'],
  summary: 'One-click unsubscribe (RFC 8058): the signed token from a mail turns all optional mail off',
  description: 'A trusted contact’s token (not a member) suppresses that address instead.',
  query: z.object({ token: singleLine().min(1).max(200) }),
  response: mailPreferences,
  errors: ['not_found'],
});

// A safety net for meeting a stranger (issue 29, section 6): the person's own, from the web
// app with their session only (a bearer token gets 403): an assistant must not send a plan
// to an address, nor answer "I'm fine" for the person.
const planIdParams = z.object({ planId: singleLine().min(1).max(80) });

export const shareState = z.object({
  success: z.literal(true),
  shared: z.boolean(),
  /** Only in the answer that made it: the secret is stored hashed. */
  url: z.string().nullable(),
  created_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  contact_email: z.string().nullable(),
  checkin: z.object({
    on: z.boolean(),
    /** When "All good?" is (or was) asked. */
    asks_at: z.string().nullable(),
    asked_at: z.string().nullable(),
    fine_at: z.string().nullable(),
    contact_mailed: z.boolean(),
  }),
});
export type ShareState = z.infer<typeof shareState>;

export const getPlanShare = defineEndpoint({
  id: 'get_plan_share',
  method: 'GET',
  path: API_PATHS.planShare,
  auth: 'buddy:read',
  personOnly: { hint: PLAN_PAGE },
  tags: ['plans'],
  summary: 'Whether you shared a plan with a trusted contact, and its check-in',
  params: planIdParams,
  response: shareState,
  errors: ['not_found', 'forbidden'],
});

export const sharePlan = defineEndpoint({
  id: 'share_plan',
  method: 'POST',
  path: API_PATHS.planShare,
  auth: 'buddy:write',
  personOnly: { hint: PLAN_PAGE },
  tags: ['plans'],
  summary: 'Make a read-only page of a plan for a trusted contact (a new link replaces the old)',
  params: planIdParams,
  body: z.strictObject({
    contact_email: singleLine()
      .trim()
      .max(254)
      .email({ message: 'Enter a valid email address, like sam@example.com' })
      .nullish(),
    checkin: z
      .boolean()
      .nullish()
      .describe('Default: on for a person under 18 when contact_email is given and mail is delivered; off otherwise'),
  }),
  bodyOptional: true,
  status: 201,
  response: shareState,
  errors: ['validation_failed', 'not_found', 'forbidden', 'conflict', 'plan_not_open'],
});

export const revokePlanShare = defineEndpoint({
  id: 'revoke_plan_share',
  method: 'DELETE',
  path: API_PATHS.planShare,
  auth: 'buddy:write',
  personOnly: { hint: PLAN_PAGE },
  tags: ['plans'],
  summary: 'Turn a share link off (it answers 410) and stop check-in',
  params: planIdParams,
  body: z.object({}),
  bodyOptional: true,
  response: shareState,
  errors: ['not_found', 'forbidden'],
});

export const answerCheckin = defineEndpoint({
  id: 'answer_checkin',
  method: 'POST',
  path: API_PATHS.planCheckin,
  auth: 'buddy:write',
  personOnly: { hint: PLAN_PAGE },
  tags: ['plans'],
  summary: 'Check-in on or off, or "I\'m fine" (stops it for good)',
  params: planIdParams,
  body: z.strictObject({ on: z.boolean().nullish(), fine: z.literal(true).nullish() }),
  response: shareState,
  errors: ['validation_failed', 'not_found', 'forbidden', 'conflict'],
});

// The same for a meetup (issue 45), for whoever holds a seat in it (the host or the confirmed;
// anyone else, the waitlisted included, gets 404): the same bodies and answers, the same rules.
const meetupIdParams = z.object({ meetupId: singleLine().min(1).max(80) });

export const getMeetupShare = defineEndpoint({
  ...getPlanShare,
  id: 'get_meetup_share',
  path: API_PATHS.meetupShare,
  personOnly: { hint: MEETUP_PAGE },
  tags: ['meetups'],
  summary: 'Whether you shared a meetup with a trusted contact, and its check-in',
  params: meetupIdParams,
});

export const shareMeetup = defineEndpoint({
  ...sharePlan,
  id: 'share_meetup',
  path: API_PATHS.meetupShare,
  personOnly: { hint: MEETUP_PAGE },
  tags: ['meetups'],
  summary: 'Make a read-only page of a meetup you hold a seat in for a trusted contact (a new link replaces the old)',
  params: meetupIdParams,
  errors: ['validation_failed', 'not_found', 'forbidden', 'conflict', 'meetup_not_open'],
});

export const revokeMeetupShare = defineEndpoint({
  ...revokePlanShare,
  id: 'revoke_meetup_share',
  path: API_PATHS.meetupShare,
  personOnly: { hint: MEETUP_PAGE },
  tags: ['meetups'],
  params: meetupIdParams,
});

export const answerMeetupCheckin = defineEndpoint({
  ...answerCheckin,
  id: 'answer_meetup_checkin',
  path: API_PATHS.meetupCheckin,
  personOnly: { hint: MEETUP_PAGE },
  tags: ['meetups'],
  params: meetupIdParams,
});

// The person's own signup at /signup: register.json's body and answer without the bearer
// token, which only an assistant needs (the browser signs in with a session).
export const webSignup = defineEndpoint({
  id: 'web_signup',
  method: 'POST',
  path: API_PATHS.webSignup,
  auth: 'none',
  tags: ['accounts'],
  summary: 'Create an account from the web signup form (no assistant key)',
  body: register.body,
  maxBodyBytes: register.maxBodyBytes,
  response: registerResponseSchema.extend({
    auth: registerResponseSchema.shape.auth.omit({ token: true, token_type: true, scopes: true }),
  }),
  status: 201,
  errors: register.errors,
});

// "Yes, show me to people nearby" (issue 41 §2): only the person, signed in on the web, lifts
// awaiting_person_consent; every bearer token (an assistant's, an OAuth client's) gets 403.
export const showMe = defineEndpoint({
  id: 'show_me_to_people',
  method: 'POST',
  path: API_PATHS.showMe,
  auth: 'profile:write',
  personOnly: { hint: SHOW_ME_HINT },
  tags: ['profile'],
  summary: 'Yes, show me to people nearby: the person lets their profile be seen (web session only)',
  body: z.strictObject({}),
  bodyOptional: true,
  response: z.object({ success: z.literal(true), onboarding: onboardingSchema }),
  errors: ['forbidden'],
});

// Discover's stand-in for a profile that is not complete yet (issue 31 §2): a rounded count, never who.
export const discoverTeaser = defineEndpoint({
  id: 'discover_teaser',
  method: 'GET',
  path: API_PATHS.discoverTeaser,
  auth: 'profile:read',
  tags: ['discover'],
  summary: 'How many people near an incomplete profile like what it likes (rounded; no one named)',
  response: z.object({
    complete: z.boolean(),
    missing: z.array(z.string()),
    nearby: z
      .object({
        at_least: z.number().int().describe('0, or rounded down to a multiple of 5, at most 100'),
        radius_km: z.number(),
        activities: z.array(z.string()),
      })
      .nullable(),
  }),
  rateLimit: { name: 'discover', by: 'user' },
});

export const webAppEndpoints = [
  webSignup,
  showMe,
  discoverTeaser,
  subscribeWebPush,
  unsubscribeWebPush,
  muteChat,
  planCalendar,
  meetupCalendar,
  reviewPlan,
  calendarFeedFile,
  getCalendarFeed,
  rotateCalendarFeed,
  revokeCalendarFeed,
  getMailPreferences,
  updateMailPreferences,
  unsubscribeMail,
  getPlanShare,
  sharePlan,
  revokePlanShare,
  answerCheckin,
  getMeetupShare,
  shareMeetup,
  revokeMeetupShare,
  answerMeetupCheckin,
] as const;

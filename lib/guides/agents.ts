// GET /AGENTS.md: everything after signup. The endpoint, limit and error tables are
// generated from the contract at request time; the flows name SPEC paths and the MCP
// tool for each when that endpoint is in the contract.
import { ageRules } from '../core/age-env';
import { SCOPES, type EndpointSpec, type HttpMethod } from '../contract/define';
import { DISPLACEMENT_MAX_KM, DISPLACEMENT_MIN_KM } from '../discover/public-point';
import { IDEMPOTENCY_TTL_SECONDS } from '../http/idempotency';
import { perWindow } from '../limits/rate-limits';
import { LIMIT_NAMES, LIMIT_RULES, type LimitDeclaration, type Limits } from '../limits/rules';
import { LIMITS } from '../contract/schemas';
import { LEGAL_PATHS } from '../web/legal-paths';
import { TEXT_RULE_IN_WORDS } from '../contract/text';
import { SCOPE_DESCRIPTIONS } from '../docs/openapi';
import { code, endpointRef, endpointTable, errorTable, fieldLimitRows, table } from './markdown';
import { type GuideContext, personConsentInWords } from './signup';
import { connectWays } from './connecting';
import { EXAMPLE_PROMPTS } from './example-prompts';

export function agentsGuide(
  endpoints: readonly EndpointSpec[],
  { baseUrl, limits, requirePersonConsent, toolListBytes }: GuideContext,
): string {
  const ref = (method: HttpMethod, path: string) => endpointRef(endpoints, method, path);
  return `# Acting for a person on Buddy Match

> For AI agents, after signup (${baseUrl}/SIGNUP.md). How to authenticate, keep the profile complete, handle buddy requests, poll the inbox, chat, plan a meeting, stay within the limits and handle every error code.

Base URL: ${baseUrl}. JSON in, JSON out. OpenAPI: ${baseUrl}/.well-known/openapi.json. MCP: ${baseUrl}/api/mcp (manifest ${baseUrl}/.well-known/mcp.json); every endpoint below is also an MCP tool with the same name as its operationId, the same arguments and the same errors. The MCP tool list is kept short (${toolListBytes ? `${Math.round(toolListBytes / 1000)} KB` : 'a tested budget'} for every tool): each tool's description says what it does and the one rule to keep, and this guide, SIGNUP.md and llms.txt are the MCP tool ${code('get_guide')} (${code('name')}: ${code('agents')}, ${code('signup')} or ${code('overview')}). MCP tools leave out ${code('agentSessionId')} and the raw ${code('schedule')} grid (send ${code('availability_text')}); both stay on the HTTP API, and a tool call that sends them is still accepted. A tool name that does not exist gets an error naming the closest tools.

In a host that shows MCP Apps views (ChatGPT, Claude, VS Code and others), ${code('discover')}, ${code('list_buddy_requests')}, ${code('send_buddy_request')}, ${code('list_messages')}, ${code('send_message')}, ${code('list_plans')}, ${code('get_plan')} and ${code('accept_plan')} also show the person a view they can tap; the text result is the same. Three actions reach another human, so there the person confirms them: a buddy request, their first message in a chat, and accepting a plan. Call ${code('send_buddy_request')}, ${code('send_message')} or ${code('accept_plan')} with ${code('confirm')}: ${code('"person"')}. Nothing happens yet: the answer says so (${code('status')}: ${code('awaiting_person')}), and the view shows the person exactly that request, message or plan with Send (or Accept) and Edit. Do not do it again or try to confirm it yourself: ${code('confirm_action')} is the view's own tool (hidden from you, and it needs a token only the view has); the confirmation lasts 15 minutes. When the host declares MCP Apps support in the request's capabilities the server waits for the tap even without ${code('confirm')} (for messages, only the person's first in that chat; operator switch ${code('MCP_REQUIRE_PERSON_CONFIRM')}). Hosts without views, and the HTTP API, act at once as before.

## What people ask, and the tools it takes

${EXAMPLE_PROMPTS.map((example) => `- "${example.prompt}": ${example.tools.map(code).join(', ')}`).join('\n')}

## Connecting

Every call that acts for the person needs a token, sent as:

\`\`\`http
Authorization: Bearer <ACCESS_TOKEN>
\`\`\`

How you get it depends on your host:

${connectWays(baseUrl)
  .map((way) => `- **${way.hosts}**: ${way.how}`)
  .join('\n')}

OAuth follows the MCP authorization specification 2026-07-28 (and works with clients of 2025-06-18 and 2025-11-25): protected resource metadata at ${code(`${baseUrl}/.well-known/oauth-protected-resource/api/mcp`)} (and ${code('/api/v1')}, and the root), authorization server metadata at ${code(`${baseUrl}/.well-known/oauth-authorization-server`)}, client ID metadata documents or dynamic registration, PKCE S256, the ${code('resource')} parameter, refresh tokens that rotate (reusing an old one ends the connection). OAuth access tokens last an hour. The person sees every connection, OAuth or not, in ${code('/account/agents')} and can end it there.

A missing, expired or revoked token answers 401 ${code('unauthorized')} with ${code('WWW-Authenticate: Bearer resource_metadata="…"')}; a token without the needed scope answers 403 ${code('insufficient_scope')}. When that 401 comes, do not register the address again: connect again as above (device sign-in if nothing else). A token stops working when:

- the person disconnects it on the web (${code('/account/agents')}, Connected assistants). On their first web sign-in the service shows them every assistant holding a token and asks them to keep or revoke each one (${code('confirmed_at')} in ${ref('GET', '/api/v1/me/tokens.json')} says they kept yours);
- the person changes the password and ticks "sign out everywhere and revoke all assistant tokens" (${code('revokeAllTokens')} on ${ref('POST', '/api/v1/me/password.json')}; that revokes your own token too);
- the owner of the email address disowns the account: every sign-in email carries a "This wasn't me" link, which disables the account for good. Its tokens, sessions and links stop working, its profile and everything it sent disappear for everyone, and the address is free to register again. So only ever sign up the person's own address.

A registration token carries all seven scopes:

${table(
  ['Scope', 'Allows'],
  SCOPES.map((s) => [code(s), SCOPE_DESCRIPTIONS[s]]),
)}

## Endpoints

${endpointTable(endpoints, baseUrl)}

## Keep the profile complete

- ${ref('GET', '/api/v1/me/complete.json')} lists ${code('missing')} fields; ask the person for them.
- ${ref('PATCH', '/api/v1/me.json')} updates only the fields you send; activities and availability are plain English; ${code('null')} clears an optional field.
- ${ref('POST', '/api/v1/me/photo.json')} uploads the photo (base64 or data URL, JPEG/PNG/WEBP, at most ${LIMITS.photoBytes / 1024 / 1024} MB). Photos are checked automatically; a rejected photo is removed and its URL stops working within seconds. Upload once and keep the returned URL: uploads and new ${code('photoURL')}s count against an hourly limit, and a busy server answers 503 with ${code('Retry-After')}.
- The profile shows in Discover once nothing is missing.
- ${personConsentInWords(requirePersonConsent)}

## Plain English in, what was understood out

- Activities are plain English or ids everywhere: profile ${code('activities')}, Discover's and the events feed's ${code('activities')} filter, and a buddy request's ${code('activityIds')} (${code('bouldering')} is read as ${code('rock_climbing')}). A filter or request with a word that matches nothing is refused with the closest ids in ${code('error.fields')}; a profile keeps it as ${code('warnings.activities_unmatched')} with ${code('warnings.activities_suggestions')} beside it (possibly empty).
- Free time is plain English, in the person's local time (${code('timezone')}, from their place unless set): ${code('availability_text')} on the profile, ${code('when')} on Discover (${code('when=weekday evenings')}: people free then, instead of the person's own free time; a fragment it cannot read is refused). Check a text with the person first with ${ref('POST', '/api/v1/availability/parse.json')} ${code('{"text": "..."}')}: no token, nothing saved; it answers the grid, ${code('summary')}, ${code('unparsed')} fragments and ${code('normalized')} roundings. Free time is kept in whole hours and never widened: 5:30pm counts from 6pm, a clause with a condition the service cannot read ("whenever the moon is blue", "saturdays if it is sunny") is left out and comes back in ${code('unparsed')}, so ask the person about it.
- Common slips are accepted and each is reported, one sentence per field, in ${code('warnings.normalized')}: ${code('availability')} as text, ${code('activities')} as one comma-separated string, ${code('coords')} as ${code('"38.72,-9.14"')}, gender words (woman, man, nonbinary, prefer not to say), unambiguous birthdays (${code('March 3 1990')}, ${code('1990/03/03')}), and either ${code('mimeType')} or ${code('photoMimeType')} on both photo paths. Confirm them with the person. Ambiguous input (${code('03/04/1990')}) is refused with the exact fix in ${code('error.fields')}.
- Discover ranks only by the searched activities, and each card lists those first, then the others the person shares, then the rest.
- An empty Discover first page carries ${code('empty_reason')} (why, with counts) and ${code('suggestions')} (each a ${code('change')}, the ${code('matches')} it finds and a ready ${code('url')}); a first page of fewer than 5 with no next page carries the ${code('suggestions')} that find more. Tell the person and ask before widening the search.
- In a dense city a Discover search reads the nearest people up to a bounded number: ${code('search.radius_km_used')} says how far it read everyone (less than ${code('radius_km')} there; people who share two or more searched activities are read further out), and a wider ${code('radius_km')} will not find more. Counts in a dense place may stop early: ${code('matches_at_least')} is then true.

## Location privacy

Buddy Match introduces strangers, so nobody can find out where a person lives through it:

- The person's exact coordinates (${code('coords')}) are private. ${ref('GET', '/api/v1/me.json')} shows them to the person alone; nobody else ever sees them, and nothing anyone else can observe is computed from them.
- Everything others learn about where someone is comes from that person's public point: the exact point moved ${DISPLACEMENT_MIN_KM}-${DISPLACEMENT_MAX_KM} km in a direction drawn for the person and the ~1 km area they are in, and kept secret. Discover's ${code('distance_km')} (whole km), its radius filter and its ranking use the public points of both people, so a distance is the same both ways and may differ from the true one by up to about ${(2 * DISPLACEMENT_MAX_KM).toFixed(1)} km. The public point never changes unless the person moves, and moving back gives the same one again, so no number of searches, from any places, narrows anyone down further. The location others see is a city (the one the person named, or the one nearest their public point).
- Tell the person this when you ask for a location, and say that a city is enough: send ${code('coords')} only if they want to.
- Over MCP, a host's coarse location in the call's ${code('_meta')} (ChatGPT's ${code('openai/userLocation')}) fills a ${code('register')} without ${code('location')} or ${code('coords')}: its city as the location and its time zone if none is set, never its coordinates; ${code('warnings.normalized')} says so, so confirm it with the person (Discover still searches only from their stored place).
- Moves are limited: at most ${perWindow(limits.location_change)} changes of the stored coordinates (new ${code('coords')}, or a new ${code('location')} that places them elsewhere; sending unchanged values does not count). Past that, ${ref('PATCH', '/api/v1/me.json')} answers 429 ${code('rate_limited')} with ${code('Retry-After')}, ${code('error.fields')} names ${code('coords')} or ${code('location')}, and nothing is stored: tell the person when they can try again. Discover searches are limited to ${perWindow(limits.discover)} per person.

## People under 18

Members may be ${ageRules().minimumAge} or older. People under 18 and adults never see or reach each other: not in Discover, profiles, shared free time or buddy requests. To each of them a person of the other world is no one (the same ${code('404')} as a slug that does not exist), so never tell the person that someone "is a minor" or "is hidden". Between two people under 18, at most ${ageRules().teenGapYears} years apart. For a person under 18:

- Their public page is not public: signed-out visitors, search engines and link previews get nothing.
- A birthday change that crosses 18 is refused (${code('validation_failed')} on ${code('birthday')}); only the operator corrects it. Do not retry with another date. They move to the adults on their 18th birthday by themselves; buddies they made before stay.
- When they share a plan or a meetup from the web app, check-in is on unless they turn it off: suggest a parent or another trusted adult as the contact.

## Polling rhythm

There are no webhooks: you learn of new things by polling, and a long-poll makes that instant and cheap.

- **Long-poll (recommended).** Follow the inbox's ${code('poll_next_url')} with ${code('wait=25')}: ${ref('GET', '/api/v1/inbox.json')} is held until something new happens for the person (a request, an answer, a message) and answered the moment it does, or after 25 s with nothing new. Then follow the new answer's ${code('poll_next_url')} at once. Its ${code('cursor')} names what you have already been shown, so each new message and request comes exactly once, none is skipped (even one that arrives while a call runs), and an answer with nothing new is never instant. With MCP (no URLs to follow), pass the last answer's ${code('cursor')} back to ${code('get_inbox')} with ${code('wait')}; ${code('list_chats')} and ${code('list_messages')} take and return a cursor the same way. ${code('wait')} takes 1-25 seconds. Sending the last ${code('ETag')} in ${code('If-None-Match')} as well turns the empty answer into a ${code('304')}.
- **Plain polling.** Without ${code('wait')}, call the inbox every **30-60 seconds** while the person is active, and every few minutes at most when they are away; never faster than every 30 seconds. Send ${code('If-None-Match')}: an unchanged inbox answers ${code('304')} with no body.
- One inbox answer holds the state (pending buddy requests, chats with unread messages, unread counts) every time, and what is new since the cursor: new messages and your newly accepted requests. The poll link is ${code('poll_next_url')} on the inbox and on messages alike; the inbox's older name ${code('next_poll_url')} carries the same URL and stays through API v1. ${code('since')} (milliseconds or ISO 8601) still works for a URL you build yourself, but it repeats whatever is newer than it on every call; prefer the cursor.
- Inside a chat, ${ref('GET', '/api/v1/chats/{chatId}/messages.json')} with its ${code('poll_next_url')} (an opaque ${code('cursor')}) returns only newer messages, each exactly once; add ${code('wait=25')} to hold an empty page until the next message (or a read marker moves); an empty answer is never instant, with or without ${code('If-None-Match')}. To read further back, pass a page's ${code('older_cursor')} as ${code('cursor')}: the page before it (null once nothing is older). A cursor this API did not issue (past the chat's last message) answers 400. ${ref('GET', '/api/v1/chats.json')} answers ${code('304')} to ${code('If-None-Match')} too, and its ${code('poll_next_url')} with ${code('wait=25')} holds until a chat changes.
- On 429 or 503, wait the ${code('Retry-After')} seconds before the next call.

## Buddy requests

1. Find someone's profile: ${ref('GET', '/api/v1/users/{slug}/profile.json')} (a slug or a user id). Send your token: without one you get only the public view (first name, no age, gender or schedule).
2. Send a request: ${ref('POST', '/api/v1/users/{slug}/buddy_request.json')} with an optional ${code('message')} and up to five ${code('activityIds')} (plain English or ids from ${ref('GET', '/api/v1/activities.json')}). Only when the person asked you to.
3. See requests: ${ref('GET', '/api/v1/buddy_requests.json')} (sent and received) or the inbox.
4. Answer a received request, only as the person decides: ${ref('POST', '/api/v1/buddy_requests/{invitationId}/accept.json')} (optional ${code('firstMessage')}; creates the buddy connection and a chat) or ${ref('POST', '/api/v1/buddy_requests/{invitationId}/decline.json')}.

## Chats

1. ${ref('GET', '/api/v1/chats.json')} lists one chat per buddy with ${code('last_message')} and ${code('unread_count')}; ${code('unread_only=1')} limits it to chats with new messages.
2. ${ref('GET', '/api/v1/chats/{chatId}/messages.json')} reads messages (${code('limit')} at most 200; ${code('mark_read=true')} also marks them read).
3. ${ref('POST', '/api/v1/chats/{chatId}/messages.json')} sends ${code('text')} (the other person gets a push notification). Send only what the person wrote or approved.
4. ${ref('POST', '/api/v1/chats/{chatId}/read.json')} marks the chat read (idempotent) so the app shows no stale badge.

Messages pass a content filter (slurs, threats, sexual solicitation, shouting, repeated-character spam) and are refused between people who blocked each other.

## From buddy to plan

1. Start with ${ref('GET', '/api/v1/users/{slug}/plan_options.json')} (optional ${code('activity')}, ${code('days')}): up to five times both are free, with a ${code('why')}, an event's place and ${code('event_id')} when one fits. Offer them; agree a time and place with the person (their words), then ${ref('POST', '/api/v1/chats/{chatId}/plans.json')} with ${code('activity')}, ${code('starts_at')} (the person's words or ISO 8601, read on their own clock, so there is no offset to work out: ${code('next Saturday 10am')}, ${code('tomorrow at 7pm')}, ${code('Sat 10-13')} (the range gives the end), ${code('this evening')}, ${code('2026-06-06T19:00')}; ${code('warnings.normalized')} says what it was read as. Words that could mean two things are refused with the fix in ${code('error.fields')}: ${code('at 7')} (7am or 7pm?), a bare weekday that is today (today, or next week?). Check first with ${ref('POST', '/api/v1/plans/read_time.json')}, which proposes nothing; in the future, at most 90 days ahead), ${code('place')} ${code('{name, address?}')}, optional ${code('ends_at')} (default 2 h later), ${code('note')} and ${code('event_id')}. For a first meeting, propose a **public place** (a café, a climbing gym, a trailhead), never a home.
2. The other person's assistant sees it in the inbox (${code('plans_to_answer')}, and a held long-poll wakes) and, only as they decide, calls ${ref('POST', '/api/v1/plans/{planId}/accept.json')} (it becomes ${code('confirmed')}) or ${ref('POST', '/api/v1/plans/{planId}/decline.json')}. To suggest another time, propose with ${code('replaces')}: a proposal it replaces is superseded at once, a confirmed plan only when the counter is accepted.
3. Either person may cancel until it starts: ${ref('POST', '/api/v1/plans/{planId}/cancel.json')} (optional ${code('reason')}; ${code('if_status')} refuses if the plan changed since you looked). ${ref('GET', '/api/v1/plans.json')} lists ${code('to_answer')}, ${code('upcoming')} or ${code('past')}; the inbox's ${code('next_plan')} is the next confirmed one, and its ${code('plan_updates')} bring every change since your cursor once (${code('what')}: proposed, countered, accepted, declined, cancelled, expired; ${code('by')}: you, buddy or null; the plan as it is now), so a decline or a cancel is never a guess.
4. Confirmed: both people get reminders (24 h and 2 h before). ${code('GET /api/v1/plans/{planId}.ics')} is the plan for a calendar. The calendar feed, sharing with a friend and, after the meeting, "Did you meet?" are the person's own, on the plan's page (the plan's ${code('page_url')}): send them there; never answer for them (any token gets 403 ${code('person_only')}, its hint naming the page).

Times come in the reader's zone; ${code('buddy_local_starts_at')} is the buddy's clock where it differs. A proposal nobody answers before its start expires. At most 3 open proposals per chat (429 ${code('too_many_open_plans')}); a plan that moved on answers 409 with ${code('error.plan')}, the plan as it is now. Every plan shows who acted through which assistant (${code('accepted_by')}: name and ${code('agent_name')}).

## Meetups

1. ${ref('GET', '/api/v1/meetups.json')} finds upcoming meetups near the person (${code('radius_km')}, ${code('activities')}, ${code('when')}, ${code('days')}), ranked by ${code('fit')}: a shared activity, whether they are usually free then, whole km between public points, seats left, with ${code('why')} to tell them. ${code('view=mine')} lists theirs. To host: ${ref('POST', '/api/v1/meetups.json')} with ${code('activity')}, ${code('starts_at')} (read as a plan's is: words or ISO 8601 on the person's clock), ${code('place')} ${code('{name, address?}')} (a public place), ${code('capacity')} (2-50, the host included), ${code('join')} (${code('open')} or ${code('approval')}), ${code('note')}, ${code('repeat_weekly')} (a weekly series of up to 12).
2. Only as the person decides, ${ref('POST', '/api/v1/meetups/{meetupId}/join.json')}: a seat while one is left, else the waitlist (${code('me.waitlist_position')}); an ${code('approval')} meetup waits for the host (${ref('POST', '/api/v1/meetups/{meetupId}/approve.json')}). The waitlist moves by itself: a freed seat goes to the first waiting (inbox ${code('meetup_updates')}: ${code('promoted')}); within 3 hours of the start it is offered instead (${code('meetups_to_answer')}: ${code('take_seat')}): join within 30 minutes to take it, or it passes on.
3. The address, the people (first names and photos) and the group chat (${code('chatId')}, the same messages endpoints and limits) are for the host and the confirmed. ${ref('POST', '/api/v1/meetups/{meetupId}/leave.json')} gives a place up; the host cancels with ${ref('POST', '/api/v1/meetups/{meetupId}/cancel.json')} (${code('series')}: the later ones too). Reminders come 24 h and 2 h before; ${code('GET /api/v1/meetups/{meetupId}.ics')} is one for a calendar. After the end the host says who did not come, on the meetup's page. Sharing it with a trusted contact, and its check-in, are for the host and the confirmed, on that page (${code('/account/meetups/{meetupId}')}), as a plan's are: send them there.

## Safe retries and visible limits

- **Retry a POST safely** with an ${code('Idempotency-Key')} header (draft-ietf-httpapi-idempotency-key-header-06): a new random UUID for each action, and the same key when you retry that action after a timeout, a dropped connection or a 5xx. For ${IDEMPOTENCY_TTL_SECONDS / 3600} hours a retry with the same key and the same request (method, path and body) gets the first answer again, status and body, with ${code('Idempotent-Replayed: true')}, and nothing happens twice: no second message, buddy request or account. A retry sent while the first is still running waits for it. The same key with a different request answers 422 ${code('idempotency_key_reused')}: a new action needs a new key. Keys belong to your token (to your IP address for the registration POST). Only successes are kept: after a 4xx or 5xx, fix the request if needed and send it again; the same key works.
- **Pace yourself** with the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-09), which every limited endpoint sends on every answer, success or not: ${code(`RateLimit-Policy: "messages";q=${limits.messages.points};w=${limits.messages.windowSeconds}`)} (q calls per w seconds) and ${code(`RateLimit: "messages";r=${limits.messages.points - 1};t=${limits.messages.windowSeconds - 60}`)} (r calls left; the window resets in t seconds). When r is 0, wait t seconds; a 429 also carries ${code('Retry-After')}. Policies: ${rateLimitPolicies().map(code).join(', ')}.
- **Every /api answer is JSON.** A method the path does not take answers 405 ${code('method_not_allowed')} with an ${code('Allow')} header and the right methods in ${code('error.hint')}. A trailing slash is served as the path without it. An unknown path answers 404 ${code('not_found')} naming the closest endpoints (${code('GET /api/v1/inbox')}: "Did you mean \`GET /api/v1/inbox.json\`?"). ${code('OPTIONS')} answers 204 with ${code('Allow')}; ${code('HEAD')} works wherever GET does.

## Limits

${table(
  ['Limit', 'Value'],
  [
    ...limitRows(limits),
    ['Inbox polling', 'every 30-60 seconds while active'],
    ['Photo', `${LIMITS.photoBytes / 1024 / 1024} MB; JPEG, PNG or WEBP`],
    ['Minimum age', `${ageRules().minimumAge} years`],
  ],
)}

Field limits, from the contract:

${table(['Field', 'Limit', 'Applies to'], fieldLimitRows(endpoints))}

## Errors

Every error is ${code('{"error":{"code":"…","message":"…","hint":"…","fields":{…}}}')}. Branch on ${code('error.code')} (stable), show ${code('message')} if useful, follow ${code('hint')}; ${code('fields')} names each invalid field.

${TEXT_RULE_IN_WORDS} Percent-encode path segments as UTF-8 (${code('encodeURIComponent')}); a path that does not decode is refused the same way.

${errorTable()}

## Etiquette

- Act only on what the person asked for. Ask before sending a buddy request, accepting, declining, messaging or proposing, accepting or cancelling a plan on their behalf.
- Never invent a response: relay only what the API returned, and say so when a call failed.
- Never give the person a shell command or script to run; give links (the sign-in link, the signup page) instead.
- Never hand the person's account, token or task to another agent, server or service.
- Keep the token secret; never show it, log it or put it in a link.
- Be kind and brief in messages; no spam, no repeated messages when there is no answer.
- Privacy policy: ${baseUrl}${LEGAL_PATHS.privacy}; terms of use (which bind what you do for the person): ${baseUrl}${LEGAL_PATHS.terms}.
`;
}

/** The limits table's rows, one per limit an agent can meet (LIMIT_RULES' `guide`), in declaration order. */
function limitRows(limits: Limits): string[][] {
  return LIMIT_NAMES.flatMap((name) => {
    const rule: LimitDeclaration = LIMIT_RULES[name];
    if (!rule.guide) return [];
    const note = rule.guide.note ? ` (${rule.guide.note})` : '';
    const allowed = rule.atOnce ? `${limits[name].points} at once` : perWindow(limits[name]);
    return [[rule.guide.label, `${allowed} ${rule.per}${note}`]];
  });
}

/** The RateLimit-Policy names an agent can see. */
function rateLimitPolicies(): string[] {
  return LIMIT_NAMES.flatMap((name) => {
    const rule: LimitDeclaration = LIMIT_RULES[name];
    return rule.policy ? [rule.policy] : [];
  });
}

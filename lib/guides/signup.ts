// GET /SIGNUP.md: the signup walkthrough an agent follows. Field tables, limits and
// error codes are rendered from the contract at request time, so they cannot drift.
import { ageRules } from '../core/age-env';
import { connectWays } from './connecting';
import { REGISTER_EXAMPLE, REGISTER_RESPONSE_EXAMPLE, register, registerBodySchema } from '../contract/accounts';
import type { warningsSchema } from '../contract/profiles';
import { LIMITS } from '../contract/schemas';
import { errorCodesFor, httpOnlyErrorCodes } from '../docs/openapi';
import { perWindow } from '../limits/rate-limits';
import type { Limits } from '../limits/rules';
import { DISCOVER_FIELDS, SHOW_ME_BUTTON } from '../profiles/onboarding';
import { SIGNUP_LINK_PARAMS, signupLink } from '../signup-link';
import { code, errorTable, fieldTable, table } from './markdown';

export interface GuideContext {
  baseUrl: string;
  /** Every limit as configured (config().limits, declared in lib/limits/rules.ts). */
  limits: Limits;
  /** REQUIRE_PERSON_CONSENT: a profile an assistant makes waits for its person's yes (issue 41 §2). */
  requirePersonConsent?: boolean;
  /** The size of MCP tools/list as this server advertises it, in bytes (the guide says it, measured). */
  toolListBytes?: number;
}

/** The guides' one paragraph on REQUIRE_PERSON_CONSENT, saying whether this service has it on. */
export function personConsentInWords(on: boolean | undefined): string {
  return (
    `${on ? 'On this service a' : 'Where the operator requires it (it is off here), a'} profile you make stays out of sight, ` +
    `${code('onboarding.awaiting_person_consent')}: ${code('true')}, until the person says "${SHOW_ME_BUTTON}" on the web, signed in ` +
    '(the sign-in link you were given or their email lands there): no Discover, its profile page and every path naming it answer 404, ' +
    `and it sends no buddy request (403 ${code('forbidden')}). Only the person can say yes; no token can, yours included (403). ` +
    `Tell them so: ${code('next_action_for_user')} says it in their words.`
  );
}

/** What to do with each warning key: typed by the schema, so a new key cannot go undocumented. */
export const WARNING_ADVICE: Record<keyof typeof warningsSchema.shape, string> = {
  schedule_summary: 'Read it back to the person and ask them to confirm their availability.',
  activities_unmatched: "Activities not recognised, in the person's words: tell them, and offer the suggestions.",
  activities_suggestions:
    'Always beside `activities_unmatched` (possibly empty): up to 3 close activity ids per unmatched word.',
  availability_unparsed:
    'Parts of `availability_text` that were not understood (each with its clause), and busy-only text ("not mondays") with the question to ask; nothing was stored for them: ask the person.',
  normalized:
    'One sentence per thing read differently from how it was sent (e.g. `gender: "woman" was read as female`, 6:30pm counted as the 6pm-7pm hour): confirm them with the person.',
  location_unresolved:
    'The location could not be placed on the map: ask for a nearby city, or send `coords`. Until then, Discover cannot measure distances.',
};

export function signupGuide({ baseUrl, limits, requirePersonConsent }: GuideContext): string {
  const example = signupLink(baseUrl, {
    email: 'sam@example.com',
    name: 'Sam',
    location: 'Portland, OR',
    activities: 'hiking, trail running, coffee',
    availability: 'weekends and Wednesday evenings',
    agent: 'ExampleAgent',
  });
  return `# Sign a person up to Buddy Match

> For AI agents acting for a person. One POST to ${baseUrl}/api/v1/register.json creates the account and returns a bearer token, a sign-in link for the person and what is still missing. After signup, follow ${baseUrl}/AGENTS.md.

Base URL: ${baseUrl}. Every request and response body is JSON (\`Content-Type: application/json\`).

## 1. Ask the person

Ask; never fill in details yourself, and ask before sharing anything about them.

- **Required:** their email address and the name other people should see.
- **For a profile that shows in Discover** (can be added later): a short bio, gender, birthday (they must be at least ${ageRules().minimumAge}), location (city), 1-5 activities in their own words, when they are usually free in their own words, and a photo.
- A password only if they want to choose one (at least ${LIMITS.passwordMin} characters). Otherwise the service generates one and returns it once.

Fields a profile needs for Discover: ${DISCOVER_FIELDS.map(code).join(', ')}.

## 2. Send one request

\`\`\`http
POST ${baseUrl}/api/v1/register.json
Content-Type: application/json
Idempotency-Key: <a new random UUID>

${JSON.stringify(REGISTER_EXAMPLE, null, 2)}
\`\`\`

Send it once. Do not retry a request that answered 201 or 409. If no answer came (a timeout, a dropped connection, a 5xx), send the very same request with the same ${code('Idempotency-Key')}: within 24 hours you get the first answer again, never a second account.

### Fields

${fieldTable(registerBodySchema)}

- Activities and availability are plain English; the service maps them (${code(`GET ${baseUrl}/api/v1/activities.json`)} lists the canonical ids). Unknown activities are warnings, not errors.
- "Weekends" means all day Saturday and Sunday.
- ${code('coords')} are derived from ${code('location')}: the service places a city or neighbourhood itself, so most people need no ${code('coords')}. ${code('coords')} are the person's exact coordinates: private. Others never see them, nor anything computed from them: Discover measures distances from a public point 0.7-1.3 km away (see "Location privacy" in ${baseUrl}/AGENTS.md). A city in ${code('location')} is enough; send ${code('coords')} only if the person wants to. The person's time zone (${code('timezone')}, IANA, e.g. ${code('Europe/Lisbon')}) follows the place too; send it only if their free time is on another clock.
- Registrations are limited to ${perWindow(limits.registrations)} from one IP address.
- Common slips are accepted and reported in ${code('warnings.normalized')}: ${code('availability')} as text (read as ${code('availability_text')}), ${code('activities')} as one comma-separated string, ${code('coords')} as ${code('"38.72,-9.14"')} (latitude first), gender words (${code('woman')}, ${code('man')}, ${code('nonbinary')}, ${code('non-binary')}, ${code('prefer not to say')}), birthdays such as ${code('March 3 1990')}, ${code('3 March 1990')} or ${code('1990/03/03')}, and ${code('mimeType')} for ${code('photoMimeType')}. A birthday like ${code('03/04/1990')} is ambiguous and refused: send ${code('YYYY-MM-DD')}.
- To check free time with the person before saving it, ${code(`POST ${baseUrl}/api/v1/availability/parse.json`)} with ${code('{"text": "..."}')} (no token) answers the summary and what was not understood, and saves nothing.
- Only ever use the person's own email address. The service writes to it at every signup (the sign-in link, or with ${code('emailMagicLink: false')} a notice without one), and that email carries a "This wasn't me" link that disables the account and every token for good.

## 3. Read the answer (HTTP 201)

\`\`\`json
${JSON.stringify(REGISTER_RESPONSE_EXAMPLE, null, 2)}
\`\`\`

${table(
  ['Field', 'What to do with it'],
  [
    [
      code('auth.token'),
      'Keep it secret. Send it as `Authorization: Bearer <token>` on every later call. Never show it to the person.',
    ],
    [
      code('auth.mobile_signin_url'),
      'Show it to the person as a link: it opens the app already signed in. Single use, expires in about an hour.',
    ],
    [
      code('auth.generated_password'),
      'Present only when you sent no password. Show it to the person once and tell them to save it.',
    ],
    ...Object.entries(WARNING_ADVICE).map(([key, advice]) => [code(`warnings.${key}`), advice]),
    [
      code('onboarding.missing'),
      'Fields still needed for Discover. Ask for them and send PATCH /api/v1/me.json (photo: POST /api/v1/me/photo.json).',
    ],
    [
      code('onboarding.awaiting_person_consent'),
      `True: nobody sees the profile until the person says "${SHOW_ME_BUTTON}" on the web (see below). You cannot do it for them.`,
    ],
    [code('next_action_for_user'), 'Show this text to the person.'],
  ],
)}

## 4. Show the person

1. The sign-in link (${code('auth.mobile_signin_url')}) and, if present, the generated password with a reminder to save it.
2. Their availability as understood (${code('warnings.schedule_summary')}) for confirmation.
3. Anything not recognised and anything still missing.
4. Whether others can see them yet (${code('onboarding.awaiting_person_consent')}). ${personConsentInWords(requirePersonConsent)}

Relay only what the API returned. Never invent a response, a link or a password.

## If it fails

Every error is ${code('{"error":{"code","message","hint","fields"}}')}. Branch on ${code('error.code')}; ${code('error.fields')} names each bad field.

${errorTable([...new Set([...errorCodesFor(register), ...httpOnlyErrorCodes(register)])])}

## Through MCP

The same signup is the MCP tool ${code('register')} on ${baseUrl}/api/mcp (Streamable HTTP; manifest at ${baseUrl}/.well-known/mcp.json). Its arguments are the fields above. Then connect to the new account the way your host can:

${connectWays(baseUrl)
  .map((way) => `- **${way.hosts}**: ${way.how}`)
  .join('\n')}

If ${code('email_taken')} comes back, the person already has an account: do not register again, connect with OAuth or device sign-in as above.

## If you cannot send a POST: the browser link

Give the person a link to ${baseUrl}/signup-with-ai with the fields as URL-encoded query parameters. They open it once, check what will be sent, press one button, and the page creates the account and shows their sign-in link.

${table(
  ['Parameter', 'Registration field', 'Notes'],
  SIGNUP_LINK_PARAMS.map((p) => [code(p.param), code(p.field), p.note]),
)}

The registration field names work too (${code('displayName')} for ${code('name')}); the page shows the person any parameter it does not use.

Example:

${example}

Rules:

- Give the person the link, never a shell command or a script to run.
- Do not hand the signup to another agent, server or service.
- Do not claim the account exists until the person tells you what the page showed.

## Next

Everything after signup (profile, photo, buddy requests, inbox polling, chats, plans, limits, every error code): ${baseUrl}/AGENTS.md. Machine-readable: ${baseUrl}/.well-known/openapi.json.

From buddy to meeting: once a buddy request is accepted, get times both are free (\`GET ${baseUrl}/api/v1/users/{slug}/plan_options.json\`), agree a time and a public place with the person and propose it in the chat (\`POST ${baseUrl}/api/v1/chats/{chatId}/plans.json\`); the other person accepts (\`POST ${baseUrl}/api/v1/plans/{planId}/accept.json\`) or declines it, and then both get reminders and a calendar file (AGENTS.md "From buddy to plan").
`;
}

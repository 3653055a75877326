// GET /llms.txt (llmstxt.org): a title, a one-line summary, the happy path in six calls
// (free markdown before the first section, as the format allows), then sections of links.
import { REGISTER_EXAMPLE } from '../contract/accounts';
import type { EndpointSpec } from '../contract/define';

/** One call of the happy path: a copyable request and the answer fields that matter next. */
export interface HappyPathStep {
  /** The contract endpoint id (a test checks the path, method and fields against it). */
  endpoint: string;
  title: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  auth: boolean;
  /** Dotted paths into the answer; [] marks an array. */
  fields: string[];
  why: string;
}

export const HAPPY_PATH: readonly HappyPathStep[] = [
  {
    endpoint: 'register',
    title: 'Sign up',
    method: 'POST',
    path: '/api/v1/register.json',
    // Every Discover field but the photo, so the photo (step 2) completes the profile.
    body: REGISTER_EXAMPLE,
    auth: false,
    fields: [
      'auth.token',
      'auth.generated_password',
      'auth.mobile_signin_url',
      'warnings.schedule_summary',
      'next_action_for_user',
    ],
    why: 'Ask the person first (only email and displayName are required); show them the password and sign-in link, and repeat the schedule summary.',
  },
  {
    endpoint: 'upload_photo',
    title: 'Add the photo',
    method: 'POST',
    path: '/api/v1/me/photo.json',
    body: { photo: 'data:image/jpeg;base64,/9j/4AAQ...' },
    auth: true,
    fields: ['photo.photoURL', 'onboarding.complete', 'onboarding.missing', 'next_action_for_user'],
    why: 'A photo the person chose; with it the profile is complete and shows in Discover.',
  },
  {
    endpoint: 'discover',
    title: 'Find buddies',
    method: 'GET',
    path: '/api/v1/discover.json?activities=hiking&when=saturday%20mornings',
    auth: true,
    fields: [
      'results[].user.slug',
      'results[].shared_activities',
      'results[].overlap_summary',
      'results[].distance_km',
      'next_cursor',
    ],
    why: 'Show the person the matches; ask only those they pick.',
  },
  {
    endpoint: 'send_buddy_request',
    title: 'Ask one',
    method: 'POST',
    path: '/api/v1/users/{slug}/buddy_request.json',
    body: { message: 'Up for a hike on Saturday morning?', activityIds: ['hiking'] },
    auth: true,
    fields: ['outcome', 'request.id', 'request.state', 'request.chatId'],
    why: 'They see it in their inbox; outcome accepted_reverse means they had already asked you.',
  },
  {
    endpoint: 'get_inbox',
    title: 'Wait for the answer',
    method: 'GET',
    path: '/api/v1/inbox.json?wait=25',
    auth: true,
    fields: ['pending_requests[].id', 'accepted_requests[].chatId', 'chats[].new_messages', 'poll_next_url', 'cursor'],
    why: 'Follow poll_next_url with wait=25 (MCP: pass cursor back): held until something new happens, each new item once.',
  },
  {
    endpoint: 'send_message',
    title: 'Say hello',
    method: 'POST',
    path: '/api/v1/chats/{chatId}/messages.json',
    body: { text: 'Great! 9am at the north trailhead?' },
    auth: true,
    fields: ['message.id', 'message.created_at'],
    why: 'Once they accept, the chatId is in accepted_requests; read replies with GET on the same path (wait=25).',
  },
];

function happyPath(baseUrl: string): string {
  return HAPPY_PATH.map((step, index) => {
    const headers = [
      ...(step.auth ? ["-H 'Authorization: Bearer <auth.token>'"] : []),
      ...(step.body !== undefined ? ["-H 'Content-Type: application/json'", `-d '${JSON.stringify(step.body)}'`] : []),
    ];
    const curl = [`curl -X ${step.method} '${baseUrl}${step.path}'`, ...headers].join(' \\\n  ');
    return `${index + 1}. **${step.title}** (\`${step.endpoint}\` tool). ${step.why} Answer: ${step.fields.map((f) => `\`${f}\``).join(', ')}.\n\n\`\`\`\n${curl}\n\`\`\``;
  }).join('\n\n');
}

export function llmsTxt(endpoints: readonly EndpointSpec[], baseUrl: string): string {
  const endpointLinks = endpoints
    .map(
      (e) =>
        `- [${e.method} ${e.path}](${baseUrl}${e.path}): ${e.summary}${e.auth === 'none' ? '' : ` (bearer token, ${e.auth})`}`,
    )
    .join('\n');
  return `# Buddy Match

> An agent-facing service for a buddy-finding app: sign a person up in one POST (or by MCP, or through a browser link), then act for them: profile, photo, buddy requests, inbox polling, chats and plans to meet.

Start with SIGNUP.md, then AGENTS.md. All endpoints take and return JSON (errors, 404s and 405s too); the bearer token comes from the signup response, from OAuth (hosts that connect MCP servers with OAuth sign the person in by themselves) or from device sign-in (\`POST ${baseUrl}/oauth/device/auth\`, for agents without a browser or that lost their token; AGENTS.md "Connecting"). Retry a POST safely with the same \`Idempotency-Key\` header; limited endpoints send \`RateLimit-Policy\` and \`RateLimit\` headers. Never invent a response, never give the person a shell command, never hand the task to another agent or server.

From zero to a first message in six calls (plain English is fine for activities and free time; \`warnings.normalized\` says what was read differently):

${happyPath(baseUrl)}

From buddy to meeting: get times both are free (\`GET ${baseUrl}/api/v1/users/{slug}/plan_options.json\`), then propose a plan in the chat (\`POST ${baseUrl}/api/v1/chats/{chatId}/plans.json\`: activity, \`starts_at\` on the person's clock (\`2026-06-06T19:00\`) or with an offset, a public place for a first meeting); the other person accepts (\`POST ${baseUrl}/api/v1/plans/{planId}/accept.json\`) or declines; the inbox shows \`plans_to_answer\`, \`next_plan\` and every change since the cursor in \`plan_updates\`; a confirmed plan reminds both people and is a calendar file (\`GET ${baseUrl}/api/v1/plans/{planId}.ics\`). MCP tools: \`plan_options\`, \`propose_plan\`, \`accept_plan\`, \`list_plans\`.

## Guides

- [SIGNUP.md](${baseUrl}/SIGNUP.md): what to ask the person, the one registration POST, what to show them after, the browser fallback
- [AGENTS.md](${baseUrl}/AGENTS.md): after signup: connecting (bearer token, OAuth, device sign-in), polling rhythm, buddy requests, chats, plans, safe retries, limits, every error code, etiquette

## API

- [OpenAPI 3.0 description](${baseUrl}/.well-known/openapi.json): every endpoint with schemas and examples
- [Endpoint index](${baseUrl}/api/v1/index.json): machine-readable list of endpoints
- [Signup schema](${baseUrl}/api/v1/register.json): signup instructions and the JSON Schema of the registration body
- [MCP manifest](${baseUrl}/.well-known/mcp.json): the MCP server at ${baseUrl}/api/mcp (Streamable HTTP) and its tools
- [API reference](${baseUrl}/docs): the same, for people

## Endpoints

${endpointLinks}

## Optional

- [Browser signup](${baseUrl}/signup-with-ai): the page a person opens from a link with URL-encoded query parameters (email, name, location, gender, birthday, about, activities, availability, photo, agent)
- [Activity catalog](${baseUrl}/api/v1/activities.json): canonical activity ids
`;
}

// One plan's whole life as two assistants see it over HTTP, printed as Markdown: from
// signup through buddies, plan options, a proposal, a counter-proposal, acceptance,
// the calendar file and the inbox, to a cancellation; then a meetup hosted by one
// assistant and joined by three others, one of whom leaves so the waitlist moves. It
// writes to the server it is pointed at (four new accounts, from one address: run that
// server with REGISTRATION_LIMIT_PER_HOUR=10), so point it at a local or staging instance.
//
//   BASE_URL=http://127.0.0.1:3000 npx tsx scripts/plan-walkthrough.ts > docs/plan-walkthrough.md
import fs from 'node:fs';

const base = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const stamp = Date.now().toString(36);

type Json = Record<string, unknown>;

/** A short view of an answer: long strings cut, long lists shortened, deep objects folded. */
function brief(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 90 ? `${value.slice(0, 87)}…` : value;
  if (Array.isArray(value)) {
    const shown = value.slice(0, 2).map((v) => brief(v, depth + 1));
    return value.length > 2 ? [...shown, `… ${value.length - 2} more`] : shown;
  }
  if (value && typeof value === 'object') {
    if (depth > 3) return '{…}';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, brief(v, depth + 1)]));
  }
  return value;
}

function pick(value: Json, keys: readonly string[]): Json {
  return Object.fromEntries(keys.filter((k) => k in value).map((k) => [k, value[k]]));
}

async function step(
  who: string,
  method: string,
  path: string,
  { token, body, show }: { token?: string; body?: unknown; show?: (answer: Json) => unknown } = {},
): Promise<Json> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const answer = (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : { text }) as Json;
  console.log(`**${who}** \`${method} ${path.replace(/token=[^&]+/, 'token=…')}\` → ${response.status}`);
  if (body) console.log(`\n\`\`\`json\n${JSON.stringify(brief(body))}\n\`\`\``);
  const shown = show && response.ok ? show(answer) : answer;
  console.log(
    typeof shown === 'string'
      ? `\n\`\`\`text\n${shown}\n\`\`\`\n`
      : `\n\`\`\`json\n${JSON.stringify(brief(shown), null, 1)}\n\`\`\`\n`,
  );
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return answer;
}

// A public-domain photo committed for the photo tests (lib/photos/fixtures/SOURCES.md).
const photo = fs
  .readFileSync(new URL('../lib/photos/fixtures/curies-orientation-6.jpg', import.meta.url))
  .toString('base64');

const person = (name: string, gender: string, coords: { latitude: number; longitude: number }) => ({
  email: `walkthrough-${name.toLowerCase()}-${stamp}@example.com`,
  displayName: name,
  gender,
  birthday: '1991-04-12',
  photo,
  photoMimeType: 'image/jpeg',
  location: 'Berlin',
  coords,
  aboutMe: `${name} walks the Grunewald most weekends.`,
  activities: ['hiking', 'bouldering'],
  availability_text: 'Saturdays 9am to 5pm',
});

async function main() {
  console.log(`# One plan's life\n\nRecorded against ${base} on ${new Date().toISOString()}.\n`);
  console.log('## Two assistants sign two people up\n');
  const ana = await step("Ana's assistant", 'POST', '/api/v1/register.json', {
    body: { ...person('Ana', 'female', { latitude: 52.52, longitude: 13.405 }), agentName: 'Claude' },
    show: (a) => ({ user: pick(a.user as Json, ['slug', 'displayName']), warnings: a.warnings }),
  });
  const ben = await step("Ben's assistant", 'POST', '/api/v1/register.json', {
    body: { ...person('Ben', 'male', { latitude: 52.53, longitude: 13.41 }), agentName: 'ChatGPT' },
    show: (a) => ({ user: pick(a.user as Json, ['slug', 'displayName']) }),
  });
  const anaToken = (ana.auth as Json).token as string;
  const benToken = (ben.auth as Json).token as string;
  const benSlug = (ben.user as Json).slug as string;

  console.log('## Ana finds Ben and asks him\n');
  await step("Ana's assistant", 'GET', '/api/v1/discover.json?activities=hiking&limit=3', {
    token: anaToken,
    show: (a) => ({
      results: (a.results as Json[]).map((r) => ({
        name: (r.user as Json).displayName,
        ...pick(r, ['distance_km', 'shared_activities', 'overlap_hours', 'overlap_summary']),
      })),
    }),
  });
  const asked = await step("Ana's assistant", 'POST', `/api/v1/users/${benSlug}/buddy_request.json`, {
    token: anaToken,
    body: { message: 'Hi Ben, up for a hike on Saturday?', agentName: 'Claude' },
    show: (a) => a.request,
  });
  await step("Ben's assistant", 'GET', '/api/v1/inbox.json', {
    token: benToken,
    show: (a) => ({
      pending_requests: (a.pending_requests as Json[]).map((r) => pick(r, ['id', 'message', 'user'])),
    }),
  });
  const accepted = await step(
    "Ben's assistant",
    'POST',
    `/api/v1/buddy_requests/${(asked.request as Json).id}/accept.json`,
    { token: benToken, body: { firstMessage: 'Gladly! Saturday works.' }, show: (a) => a.chat },
  );
  const chatId = (accepted.chat as Json).chatId as string;

  console.log('## Times that suit both, and a proposal\n');
  const options = await step("Ana's assistant", 'GET', `/api/v1/users/${benSlug}/plan_options.json?activity=hiking`, {
    token: anaToken,
    show: (a) => ({ options: a.options }),
  });
  const first = (options.options as Json[])[0];
  if (!first) throw new Error('no plan options: are both free on a Saturday in the next weeks?');
  const proposed = await step("Ana's assistant", 'POST', `/api/v1/chats/${chatId}/plans.json`, {
    token: anaToken,
    body: {
      activity: first.activity,
      starts_at: first.starts_at,
      ends_at: first.ends_at,
      place: { name: 'S Grunewald station', address: 'Am Bahnhof Grunewald, Berlin' },
      note: 'Loop to the Teufelsberg, about 3 hours.',
      agentName: 'Claude',
    },
    show: (a) => a.plan,
  });
  const planId = (proposed.plan as Json).id as string;

  console.log("## Ben's side: the plan to answer, a later start, and Ana's yes\n");
  await step("Ben's assistant", 'GET', '/api/v1/inbox.json', {
    token: benToken,
    show: (a) => pick(a, ['plans_to_answer', 'next_plan']),
  });
  const later = new Date(new Date(String(first.starts_at)).getTime() + 60 * 60_000).toISOString();
  const counter = await step("Ben's assistant", 'POST', `/api/v1/chats/${chatId}/plans.json`, {
    token: benToken,
    body: {
      activity: first.activity,
      starts_at: later,
      place: { name: 'S Grunewald station', address: 'Am Bahnhof Grunewald, Berlin' },
      replaces: planId,
      agentName: 'ChatGPT',
    },
    show: (a) => pick(a.plan as Json, ['id', 'status', 'starts_at', 'replaces', 'from_me']),
  });
  const counterId = (counter.plan as Json).id as string;
  await step("Ana's assistant", 'POST', `/api/v1/plans/${counterId}/accept.json`, {
    token: anaToken,
    body: { agentName: 'Claude' },
    show: (a) => pick(a.plan as Json, ['id', 'status', 'starts_at', 'buddy_local_starts_at', 'replaces']),
  });
  await step("Ana's assistant", 'GET', `/api/v1/plans/${planId}.json`, {
    token: anaToken,
    show: (a) => pick(a.plan as Json, ['id', 'status', 'superseded_by']),
  });

  console.log('## Both calendars and inboxes\n');
  await step("Ben's assistant", 'GET', `/api/v1/plans/${counterId}.ics`, {
    token: benToken,
    show: (a) =>
      String(a.text)
        .split(/\r?\n/)
        .filter((line) => /^(UID|SEQUENCE|DTSTART|DTEND|SUMMARY|LOCATION|STATUS|TRIGGER)/.test(line))
        .join('\n'),
  });
  await step("Ben's assistant", 'GET', '/api/v1/inbox.json', {
    token: benToken,
    show: (a) => pick(a, ['plans_to_answer', 'next_plan']),
  });

  console.log('## Plans change: Ben cancels, with a reason Ana reads\n');
  await step("Ben's assistant", 'POST', `/api/v1/plans/${counterId}/cancel.json`, {
    token: benToken,
    body: { reason: 'Sprained my ankle, sorry! Next week?', if_status: 'confirmed', agentName: 'ChatGPT' },
    show: (a) => pick(a.plan as Json, ['id', 'status', 'cancelled_by', 'cancel_reason']),
  });
  await step("Ana's assistant", 'GET', `/api/v1/plans/${counterId}.json`, {
    token: anaToken,
    show: (a) => pick(a.plan as Json, ['id', 'status', 'cancelled_by', 'cancel_reason', 'activity', 'starts_at']),
  });
  await step("Ana's assistant", 'GET', '/api/v1/plans.json?view=upcoming', {
    token: anaToken,
    show: (a) => ({ plans: a.plans }),
  });

  await meetup(anaToken, benToken);
}

/** A meetup: Ana's assistant hosts, three others join (the third waits), one leaves and the waitlist moves. */
async function meetup(anaToken: string, benToken: string) {
  console.log('## A meetup: Ana hosts, three join, one leaves, the waitlist moves\n');
  const cleo = await step("Cleo's assistant", 'POST', '/api/v1/register.json', {
    body: { ...person('Cleo', 'female', { latitude: 52.51, longitude: 13.39 }), agentName: 'Gemini' },
    show: (a) => ({ user: pick(a.user as Json, ['slug', 'displayName']) }),
  });
  const dev = await step("Dev's assistant", 'POST', '/api/v1/register.json', {
    body: { ...person('Dev', 'male', { latitude: 52.5, longitude: 13.42 }), agentName: 'Copilot' },
    show: (a) => ({ user: pick(a.user as Json, ['slug', 'displayName']) }),
  });
  const cleoToken = (cleo.auth as Json).token as string;
  const devToken = (dev.auth as Json).token as string;
  const card = (m: Json) => pick(m, ['id', 'activity', 'starts_at', 'place', 'seats_left', 'waitlist', 'me']);

  // Next Thursday at 7 pm on Ana's clock: no offset, so it is read in her zone.
  const thursday = new Date(Date.now() + 3 * 86_400_000);
  while (thursday.getUTCDay() !== 4) thursday.setUTCDate(thursday.getUTCDate() + 1);
  const hosted = await step("Ana's assistant", 'POST', '/api/v1/meetups.json', {
    token: anaToken,
    body: {
      activity: 'bouldering',
      starts_at: `${thursday.toISOString().slice(0, 10)}T19:00`,
      place: { name: 'Ostbloc', address: 'Hauptstraße 13, Berlin' },
      capacity: 3,
      note: 'Shoes can be rented at the desk.',
      agentName: 'Claude',
    },
    show: (a) =>
      pick(a.meetup as Json, ['id', 'activity', 'starts_at', 'ends_at', 'place', 'capacity', 'seats_left', 'me']),
  });
  const meetupId = (hosted.meetup as Json).id as string;

  await step("Cleo's assistant", 'GET', '/api/v1/meetups.json?activities=bouldering', {
    token: cleoToken,
    show: (a) => ({ results: (a.results as Json[]).map((r) => ({ meetup: card(r.meetup as Json), fit: r.fit })) }),
  });
  for (const [who, token] of [
    ["Ben's assistant", benToken],
    ["Cleo's assistant", cleoToken],
    ["Dev's assistant", devToken],
  ] as const) {
    await step(who, 'POST', `/api/v1/meetups/${meetupId}/join.json`, {
      token,
      body: {},
      show: (a) => card(a.meetup as Json),
    });
  }
  await step("Cleo's assistant", 'POST', `/api/v1/chats/${(hosted.meetup as Json).chatId}/messages.json`, {
    token: cleoToken,
    body: { text: 'First time there: shall we meet at the entrance at 6:55?' },
    show: (a) => pick(a.message as Json, ['id', 'text', 'agent_name']),
  });

  console.log("Ben can't make it after all: his seat goes to Dev, first on the waitlist, who is told.\n");
  await step("Ben's assistant", 'POST', `/api/v1/meetups/${meetupId}/leave.json`, {
    token: benToken,
    body: {},
    show: (a) => card(a.meetup as Json),
  });
  await step("Dev's assistant", 'GET', '/api/v1/inbox.json', {
    token: devToken,
    show: (a) => ({
      meetup_updates: (a.meetup_updates as Json[]).map((u) => ({ what: u.what, meetup: card(u.meetup as Json) })),
    }),
  });
  await step("Ana's assistant", 'GET', `/api/v1/meetups/${meetupId}.json`, {
    token: anaToken,
    show: (a) => pick(a.meetup as Json, ['seats_left', 'waitlist', 'people']),
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

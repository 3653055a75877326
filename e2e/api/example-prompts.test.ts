// Issue 47: the example prompts the home page, AGENTS.md and the MCP manifest show (app directories
// ask for three or more) are each made as the tool calls they name, in order, through the official
// MCP SDK client, by a person set up for it at their own spot at sea. A prompt whose calls fail, or
// that names tools its scenario does not call, fails here.
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PROMPTS } from '@/lib/guides/example-prompts';
import { testDb, uniqueEmail } from './client';
import { closeMcpClients, connectMcp } from './mcp-client';
import { DAY, host, type Person, person, spotsAt } from './meetup-helpers';
import { makeBuddies, say } from './social-helpers';
import { updateMe } from '@/lib/contract/profiles';
import { call as callApi } from './contract-client';

const spot = spotsAt(-34);
afterAll(closeMcpClients);

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }> };

/** The person's assistant: each call is recorded, and answers the result's JSON; a failed call fails the test. */
async function assistant(token?: string) {
  const client = await connectMcp('example-prompts-test', token);
  const made: string[] = [];
  return {
    made,
    async call(name: string, args: Record<string, unknown>): Promise<any> {
      made.push(name);
      const result = (await client.callTool({ name, arguments: args })) as Result;
      const text = result.content[0]?.text ?? '';
      expect(result.isError ?? false, `${name}: ${text}`).toBe(false);
      return JSON.parse(text);
    },
  };
}

/** Someone Discover shows: the photo set behind the API's back (uploads have their own tests), then completed. */
async function discoverable(name: string, at: { latitude: number; longitude: number }, extra = {}, kmNorth = 0) {
  const someone = await person(name, at, { aboutMe: `I am ${name}`, gender: 'female', ...extra }, kmNorth);
  await testDb()
    .updateTable('users')
    .set({ photo_url: `https://example.com/${someone.slug}.jpg` })
    .where('id', '=', someone.id)
    .execute();
  const patched = await callApi(updateMe, { token: someone.token, body: { aboutMe: `I am ${name}!` } });
  expect(patched.onboarding.complete).toBe(true);
  return someone;
}

type Assistant = Awaited<ReturnType<typeof assistant>>;

/** Each prompt's calls, keyed by the tools it names: the person is set up first, then their assistant acts. */
const SCENARIOS: Record<string, () => Promise<Assistant>> = {
  register: async () => {
    const it = await assistant();
    const email = uniqueEmail('prompt');
    const answer = await it.call('register', {
      email,
      displayName: 'Rui',
      location: 'Lisbon',
      activities: ['hiking'],
      availability_text: 'Saturday mornings',
    });
    const stored = await testDb()
      .selectFrom('users')
      .select(['location', 'activities', 'timezone'])
      .where('id', '=', answer.user.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ activities: ['hiking'], timezone: 'Europe/Lisbon' });
    expect(stored.location).toMatch(/Lisbon/);
    return it;
  },

  'discover,send_buddy_request': async () => {
    const at = spot();
    const me = await discoverable('Prompt Seeker', at);
    const climber = await discoverable('Prompt Climber', at, {}, 3);
    const it = await assistant(me.token);
    const found = await it.call('discover', { activities: 'bouldering' });
    const match = found.results.find((r: { user: { slug: string } }) => r.user.slug === climber.slug);
    expect(match, JSON.stringify(found)).toBeDefined();
    const sent = await it.call('send_buddy_request', { slug: match.user.slug, activityIds: 'bouldering' });
    const stored = await testDb()
      .selectFrom('buddy_requests')
      .select(['sender_id', 'recipient_id', 'state'])
      .where('id', '=', sent.request.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ sender_id: me.id, recipient_id: climber.id, state: 'pending' });
    return it;
  },

  'get_inbox,send_message': async () => {
    const at = spot();
    const me = await person('Prompt Reader', at);
    const ana = await person('Ana Prompt', at, {}, 2);
    const chatId = await makeBuddies(ana, me);
    await say(ana, chatId, 'Does Saturday work for you?');
    const it = await assistant(me.token);
    const inbox = await it.call('get_inbox', {});
    const chat = inbox.chats.find((c: { buddy: { slug: string } }) => c.buddy.slug === ana.slug);
    expect(chat.new_messages.map((m: { text: string }) => m.text)).toContain('Does Saturday work for you?');
    await it.call('send_message', { chatId: chat.chatId, text: 'Saturday works for me!' });
    const sent = await testDb()
      .selectFrom('messages')
      .select('text')
      .where('chat_id', '=', chatId)
      .where('sender_id', '=', me.id)
      .execute();
    expect(sent.map((m) => m.text)).toEqual(['Saturday works for me!']);
    return it;
  },

  'list_chats,plan_options,propose_plan': async () => {
    const at = spot();
    const me = await person('Prompt Runner', at, { activities: ['running'] });
    const sam: Person = await person('Sam Prompt', at, { activities: ['running'] }, 2);
    await makeBuddies(me, sam);
    const it = await assistant(me.token);
    const chats = await it.call('list_chats', {});
    const chat = chats.chats.find((c: { buddy: { slug: string } }) => c.buddy.slug === sam.slug);
    const { options } = await it.call('plan_options', { slug: sam.slug, days: 7 });
    expect(options.length, 'times both are free this week').toBeGreaterThan(0);
    const proposed = await it.call('propose_plan', {
      chatId: chat.chatId,
      activity: options[0].activity,
      starts_at: options[0].starts_at,
      place: { name: 'Parque Eduardo VII, main gate' },
    });
    const stored = await testDb()
      .selectFrom('plans')
      .select(['proposer_id', 'recipient_id', 'status', 'starts_at'])
      .where('id', '=', proposed.plan.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ proposer_id: me.id, recipient_id: sam.id, status: 'proposed' });
    expect(stored.starts_at.getTime()).toBe(Date.parse(options[0].starts_at));
    return it;
  },

  'find_meetups,join_meetup': async () => {
    const at = spot();
    const me = await person('Prompt Player', at, { activities: ['board games'] });
    const organiser = await person('Prompt Organiser', at, { activities: ['board games'] }, 2);
    const hosted = await host(organiser, {
      activity: 'board games',
      starts_at: new Date(Date.now() + 2 * DAY).toISOString(),
      place: { name: 'The Dice Café', address: 'Rua Augusta 1' },
    });
    const it = await assistant(me.token);
    const found = await it.call('find_meetups', { activities: 'board games' });
    const meetup = found.results.find((r: { meetup: { id: string } }) => r.meetup.id === hosted.meetup.id)?.meetup;
    expect(meetup, JSON.stringify(found)).toBeDefined();
    await it.call('join_meetup', { meetupId: meetup.id });
    const seat = await testDb()
      .selectFrom('meetup_attendees')
      .select('status')
      .where('meetup_id', '=', meetup.id)
      .where('user_id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(seat.status).toBe('confirmed');
    return it;
  },
};

describe('the example prompts (home page, AGENTS.md, the MCP manifest)', () => {
  it('are at least three, each with a scenario here', () => {
    expect(EXAMPLE_PROMPTS.length).toBeGreaterThanOrEqual(3);
    for (const example of EXAMPLE_PROMPTS)
      expect(Object.keys(SCENARIOS), example.prompt).toContain(example.tools.join(','));
  });

  it.each(EXAMPLE_PROMPTS.map((example) => [example.prompt, example] as const))(
    '"%s": its tool calls succeed through the MCP SDK',
    async (_prompt, example) => {
      const scenario = SCENARIOS[example.tools.join(',')];
      if (!scenario) throw new Error(`No scenario for ${example.tools.join(', ')}`);
      const it = await scenario();
      expect(it.made).toEqual(example.tools);
    },
  );
});

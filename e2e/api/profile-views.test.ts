// Issue 17: what profile.json shows a stranger versus a signed-in caller, and the chat
// message fields the full-screen chat reads (the assistant that sent a message, and the
// buddy's read marker behind "Seen"), against the real server and database.
import { describe, expect, it } from 'vitest';
import { getPublicProfile, publicProfileSchema } from '@/lib/contract/profiles';
import { listChats, listMessages } from '@/lib/contract/chats';
import { blockUser } from '@/lib/contract/safety';
import { api, registerUser, updateTokens } from './client';
import { call, callWithHeaders, pathOf, refused } from './contract-client';
import { makeBuddies, say } from './social-helpers';

const profileOf = (slug: string, token?: string) => call(getPublicProfile, { params: { slug }, token });

async function person(displayName: string, extra: Record<string, unknown> = {}) {
  return registerUser({
    displayName,
    birthday: '1990-05-06',
    gender: 'female',
    location: 'Lisbon',
    activities: ['hiking', 'board games'],
    availability_text: 'weekends and Wednesday evenings',
    aboutMe: 'Trails at dawn.',
    ...extra,
  });
}

describe('GET /api/v1/users/{slug}/profile.json: public and member views', () => {
  it('shows a stranger the first name, photo, city and activities, but no age, gender or schedule', async () => {
    const ana = await person('Ana Lima Sousa');
    const res = await profileOf(ana.slug);
    const profile = publicProfileSchema.strict().parse(res.profile);
    expect(profile).toMatchObject({
      view: 'public',
      displayName: 'Ana',
      location: expect.stringMatching(/^Lisbon/),
      activities: ['hiking', 'board_games'],
      aboutMe: 'Trails at dawn.',
      age: null,
      age_bucket: null,
      gender: null,
      schedule: null,
      schedule_summary: null,
    });
    expect(JSON.stringify(res)).not.toMatch(/Lima|Sousa|1990|Wednesday|Saturday/);
  });

  it('shows a signed-in caller (bearer token) the member view with age, gender and the weekly schedule', async () => {
    const ana = await person('Ana Lima Sousa');
    const bea = await registerUser({ displayName: 'Bea Viewer' });
    const res = await profileOf(ana.slug, bea.token);
    const profile = publicProfileSchema.strict().parse(res.profile);
    expect(profile).toMatchObject({
      view: 'member',
      displayName: 'Ana Lima Sousa',
      gender: 'female',
      age: expect.any(Number),
    });
    expect(profile.schedule?.[5]?.every(Boolean)).toBe(true); // Saturday
    expect(profile.schedule_summary).toMatch(/Saturday|weekend/i);
    // One's own profile is the member view too.
    expect((await profileOf(ana.slug, ana.token)).profile.view).toBe('member');
  });

  it('answers an invalid or revoked token with 401, never the public view; a token without profile:read gets the public view', async () => {
    const ana = await person('Ana Tokens');
    const params = { slug: ana.slug };
    const bad = await refused(
      getPublicProfile,
      { params, headers: { authorization: 'Bearer bm_at_notarealtoken' } },
      'unauthorized',
    );
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
    await refused(getPublicProfile, { params, headers: { authorization: 'Token abc' } }, 'unauthorized');

    const bea = await registerUser({ displayName: 'Bea Revoked' });
    await updateTokens(bea.id, { scopes: ['message:read'] });
    // A valid token without profile:read may read what anyone may: the public view.
    const narrow = await profileOf(ana.slug, bea.token);
    expect(narrow.profile).toMatchObject({ view: 'public', age: null, schedule: null });
    await updateTokens(bea.id, { revoked_at: new Date() });
    await refused(getPublicProfile, { params, token: bea.token }, 'unauthorized');
  });

  it('gives the public view across a block, either way', async () => {
    const ana = await person('Ana Blocker');
    const bea = await person('Bea Blocked');
    await call(blockUser, { params: { slug: bea.slug }, token: ana.token });
    expect((await profileOf(ana.slug, bea.token)).profile).toMatchObject({ view: 'public', schedule: null, age: null });
    expect((await profileOf(bea.slug, ana.token)).profile).toMatchObject({ view: 'public', schedule: null, age: null });
  });
});

describe('messages: agent_name and the buddy read marker', () => {
  it('labels a message with the token’s own agent, named in the body or not; null for the person', async () => {
    const ana = await registerUser({ displayName: 'Ana Agent', agentName: 'Claude' });
    const bea = await registerUser({ displayName: 'Bea Human' });
    const chatId = await makeBuddies(ana, bea);

    const byToken = await say(ana, chatId, 'Saturday at 9?');
    expect(byToken.agent_name).toBe('Claude');
    // Another agent's name is refused (e2e/api/chats.test.ts); its own, in any case, is the recorded one.
    const named = await say(ana, chatId, 'Bringing snacks.', { agentName: 'CLAUDE' });
    expect(named.agent_name).toBe('Claude');
    const human = await say(bea, chatId, 'Great!');
    expect(human.agent_name).toBeNull();

    // Both people read the same attribution.
    for (const reader of [ana, bea]) {
      const page = await call(listMessages, { params: { chatId }, token: reader.token });
      expect(page.messages.map((m) => [m.text, m.agent_name])).toEqual([
        ['Saturday at 9?', 'Claude'],
        ['Bringing snacks.', 'Claude'],
        ['Great!', null],
      ]);
    }
    const chats = await call(listChats, { token: bea.token });
    expect(chats.chats[0]?.last_message).toMatchObject({ text: 'Great!', agent_name: null });
  });

  it('reports the buddy’s last read message, and a changed marker changes the ETag', async () => {
    const ana = await registerUser({ displayName: 'Ana Reader' });
    const bea = await registerUser({ displayName: 'Bea Reader' });
    const chatId = await makeBuddies(ana, bea);
    const sent = await say(ana, chatId, 'Hi Bea');
    const params = { chatId };

    const before = await callWithHeaders(listMessages, { params, token: ana.token });
    expect(before.data.buddy_last_read_message_id).toBeNull();
    const tag = before.headers.get('etag') ?? '';
    expect(tag).toBeTruthy();
    // 304 with no body: a conditional request call() does not model, so raw.
    expect(
      (await api('GET', pathOf(listMessages, params), { token: ana.token, headers: { 'if-none-match': tag } })).status,
    ).toBe(304);

    // Bea reads the chat: Ana's next look sees it ("Seen"), and her old tag no longer matches.
    await call(listMessages, { params, query: { mark_read: 1 }, token: bea.token });
    const after = await callWithHeaders(listMessages, { params, token: ana.token, headers: { 'if-none-match': tag } });
    expect(after.status).toBe(200);
    expect(after.data.buddy_last_read_message_id).toBe(sent.id);
    expect(after.headers.get('etag')).not.toBe(tag);
  });
});

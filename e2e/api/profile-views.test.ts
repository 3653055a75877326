// Issue 17: what profile.json shows a stranger versus a signed-in caller, and the chat
// message fields the full-screen chat reads (the assistant that sent a message, and the
// buddy's read marker behind "Seen"), against the real server and database.
import { describe, expect, it } from 'vitest';
import { publicProfileSchema } from '@/lib/contract/profiles';
import { listMessages, sendMessage } from '@/lib/contract/social';
import { api, registerUser, updateTokens } from './client';
import { makeBuddies, send } from './social-helpers';

const profilePath = (slug: string) => `/api/v1/users/${encodeURIComponent(slug)}/profile.json`;

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
    const res = await api('GET', profilePath(ana.slug));
    expect(res.status).toBe(200);
    const profile = publicProfileSchema.strict().parse(res.body.profile);
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
    expect(JSON.stringify(res.body)).not.toMatch(/Lima|Sousa|1990|Wednesday|Saturday/);
  });

  it('shows a signed-in caller (bearer token) the member view with age, gender and the weekly schedule', async () => {
    const ana = await person('Ana Lima Sousa');
    const bea = await registerUser({ displayName: 'Bea Viewer' });
    const res = await api('GET', profilePath(ana.slug), { token: bea.token });
    expect(res.status).toBe(200);
    const profile = publicProfileSchema.strict().parse(res.body.profile);
    expect(profile).toMatchObject({ view: 'member', displayName: 'Ana Lima Sousa', gender: 'female', age: expect.any(Number) });
    expect(profile.schedule?.[5]?.every(Boolean)).toBe(true); // Saturday
    expect(profile.schedule_summary).toMatch(/Saturday|weekend/i);
    // One's own profile is the member view too.
    expect((await api('GET', profilePath(ana.slug), { token: ana.token })).body.profile.view).toBe('member');
  });

  it('answers an invalid or revoked token with 401, never the public view; a token without profile:read gets the public view', async () => {
    const ana = await person('Ana Tokens');
    const bad = await api('GET', profilePath(ana.slug), { headers: { authorization: 'Bearer bm_at_notarealtoken' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('unauthorized');
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
    const malformed = await api('GET', profilePath(ana.slug), { headers: { authorization: 'Token abc' } });
    expect(malformed.status).toBe(401);

    const bea = await registerUser({ displayName: 'Bea Revoked' });
    await updateTokens(bea.id, { scopes: ['message:read'] });
    // A valid token without profile:read may read what anyone may: the public view.
    const narrow = await api('GET', profilePath(ana.slug), { token: bea.token });
    expect(narrow.status).toBe(200);
    expect(narrow.body.profile).toMatchObject({ view: 'public', age: null, schedule: null });
    await updateTokens(bea.id, { revoked_at: new Date() });
    const revoked = await api('GET', profilePath(ana.slug), { token: bea.token });
    expect(revoked.status).toBe(401);
  });

  it('gives the public view across a block, either way', async () => {
    const ana = await person('Ana Blocker');
    const bea = await person('Bea Blocked');
    expect((await api('POST', `/api/v1/users/${bea.slug}/block.json`, { token: ana.token })).status).toBe(200);
    expect((await api('GET', profilePath(ana.slug), { token: bea.token })).body.profile).toMatchObject({ view: 'public', schedule: null, age: null });
    expect((await api('GET', profilePath(bea.slug), { token: ana.token })).body.profile).toMatchObject({ view: 'public', schedule: null, age: null });
  });
});

describe('messages: agent_name and the buddy read marker', () => {
  it('labels a message with the assistant that sent it: named in the body, else the token’s agent; null for the person', async () => {
    const ana = await registerUser({ displayName: 'Ana Agent', agentName: 'Claude' });
    const bea = await registerUser({ displayName: 'Bea Human' });
    const chatId = await makeBuddies(ana, bea);

    const byToken = await send(ana, chatId, 'Saturday at 9?');
    expect(byToken.status).toBe(201);
    expect(sendMessage.response.parse(byToken.body).message.agent_name).toBe('Claude');
    const named = await send(ana, chatId, 'Bringing snacks.', { agentName: 'OtherBot' });
    expect(named.body.message.agent_name).toBe('OtherBot');
    const human = await send(bea, chatId, 'Great!');
    expect(human.body.message.agent_name).toBeNull();

    // Both people read the same attribution.
    for (const reader of [ana, bea]) {
      const page = listMessages.response.parse((await api('GET', `/api/v1/chats/${chatId}/messages.json`, { token: reader.token })).body);
      expect(page.messages.map((m) => [m.text, m.agent_name])).toEqual([
        ['Saturday at 9?', 'Claude'],
        ['Bringing snacks.', 'OtherBot'],
        ['Great!', null],
      ]);
    }
    const chats = await api('GET', '/api/v1/chats.json', { token: bea.token });
    expect(chats.body.chats[0].last_message).toMatchObject({ text: 'Great!', agent_name: null });
  });

  it('reports the buddy’s last read message, and a changed marker changes the ETag', async () => {
    const ana = await registerUser({ displayName: 'Ana Reader' });
    const bea = await registerUser({ displayName: 'Bea Reader' });
    const chatId = await makeBuddies(ana, bea);
    const sent = await send(ana, chatId, 'Hi Bea');
    const path = `/api/v1/chats/${chatId}/messages.json`;

    const before = await api('GET', path, { token: ana.token });
    expect(before.body.buddy_last_read_message_id).toBeNull();
    const tag = before.headers.get('etag')!;
    expect(tag).toBeTruthy();
    expect((await api('GET', path, { token: ana.token, headers: { 'if-none-match': tag } })).status).toBe(304);

    // Bea reads the chat: Ana's next look sees it ("Seen"), and her old tag no longer matches.
    expect((await api('GET', `${path}?mark_read=1`, { token: bea.token })).status).toBe(200);
    const after = await api('GET', path, { token: ana.token, headers: { 'if-none-match': tag } });
    expect(after.status).toBe(200);
    expect(after.body.buddy_last_read_message_id).toBe(sent.body.message.id);
    expect(after.headers.get('etag')).not.toBe(tag);
  });
});

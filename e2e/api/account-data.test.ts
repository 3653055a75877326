// Issue 31, "People's data in their own hands": Download my data (GDPR Art. 20) and
// Delete my account (Art. 17), against the real server and database. The deletion is
// checked from the outside, the way others and an attacker meet it: the kept token and
// session, sign-in, the profile, Discover, requests, the chat and the photo URL.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { discover } from '@/lib/contract/discover';
import { uploadPhoto } from '@/lib/contract/photos';
import { getMe, getPublicProfile } from '@/lib/contract/profiles';
import { deleteMyAccount, exportMyData } from '@/lib/contract/signin';
import { listBuddyRequests } from '@/lib/contract/buddies';
import { listChats, listMessages, sendMessage } from '@/lib/contract/chats';
import { makeFlatImage } from '@/e2e/support/photos/test-images';
import { waitFor } from '../support/wait';
import { baseUrl, registerUser, testDb, uniqueEmail, updateTokens } from './client';
import { call, pathOf as contractPath, refused, send } from './contract-client';
import { askBuddy, makeBuddies, say } from './social-helpers';
import { WebClient, pathOf } from './web-client';

const PASSWORD = 'a long passphrase for deleting';
const ORIGIN = () => new URL(baseUrl()).origin;

/** A spot in the open sea of its own, so nobody from another test is nearby in Discover. */
function openSea() {
  return { latitude: -50 + Math.random() * 10, longitude: -140 + Math.random() * 10 };
}

/** A complete profile (visible in Discover) with a real uploaded photo. */
async function completePerson(name: string, at: { latitude: number; longitude: number }) {
  const email = uniqueEmail('data');
  const registered = await call(register, {
    body: {
      email,
      password: PASSWORD,
      displayName: name,
      aboutMe: `I am ${name}`,
      location: 'Open sea',
      coords: at,
      gender: 'female',
      birthday: '1990-06-15',
      activities: ['hiking'],
      availability_text: 'weekends',
    },
  });
  const token = registered.auth.token;
  const photo = await call(uploadPhoto, {
    token,
    body: { photo: (await makeFlatImage('jpeg', '#3366cc')).toString('base64') },
  });
  return { id: registered.user.id, slug: registered.user.slug, email, token, photo: photo.photo };
}

describe('Download my data', () => {
  it('holds the person’s profile, photos, requests both ways, chats, plans and assistant activity, and nothing private of others', async () => {
    const me = await registerUser({ displayName: 'Exporting Ema', agentName: 'EmaBot', aboutMe: 'Ema about' });
    const [buddy, asker, stranger] = await Promise.all([
      registerUser({ displayName: 'Buddy Bo', aboutMe: 'Bo private about text' }),
      registerUser({ displayName: 'Asker Al' }),
      registerUser({ displayName: 'Stranger Sy' }),
    ]);
    await call(uploadPhoto, {
      token: me.token,
      body: { photo: (await makeFlatImage('png', '#aa5500')).toString('base64') },
    });
    // The buddy's acceptance carries the first message.
    const chatId = await makeBuddies(me, buddy, 'Hi Ema, Saturday?');
    await say(me, chatId, 'Saturday works');
    await askBuddy(asker, me, { message: 'Climb with me?' });
    const outChat = await makeBuddies(buddy, stranger, 'Between Bo and Sy only');

    const res = await send(exportMyData, { token: me.token });
    if (!res.ok) throw new Error(`export failed: ${res.error.code}`);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="buddy-match-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers.get('cache-control')).toContain('no-store');
    const data = res.data as Record<string, any>;
    expect(data.format).toBe('buddy-match-export/1');
    expect(data.profile).toMatchObject({
      id: me.id,
      email: me.user.email,
      displayName: 'Exporting Ema',
      aboutMe: 'Ema about',
    });
    expect(data.photos).toHaveLength(1);
    expect(data.photos[0]).toMatchObject({ status: 'active', mimeType: expect.any(String) });
    expect(data.buddy_requests.map((r: any) => [r.direction, r.with.displayName])).toEqual(
      expect.arrayContaining([
        ['sent', 'Buddy Bo'],
        ['received', 'Asker Al'],
      ]),
    );
    expect(data.buddy_requests.find((r: any) => r.direction === 'received').message).toBe('Climb with me?');
    const chat = data.chats.find((c: any) => c.chatId === chatId);
    expect(chat.with).toEqual({ slug: buddy.slug, displayName: 'Buddy Bo' });
    expect(chat.messages.map((m: any) => [m.from_me, m.text])).toEqual([
      [false, 'Hi Ema, Saturday?'],
      [true, 'Saturday works'],
    ]);
    expect(data.plans).toEqual([]);
    // EmaBot registered the person: its token and its recorded action.
    expect(data.assistants.tokens[0]).toMatchObject({
      agent_name: 'EmaBot',
      scopes: expect.arrayContaining(['profile:read']),
    });
    expect(data.assistants.actions).toContainEqual(
      expect.objectContaining({ action: 'register', agent_name: 'EmaBot' }),
    );

    // Nothing private of anyone else, and nothing of chats the person is not in.
    const text = JSON.stringify(data);
    for (const leak of [
      buddy.user.email,
      asker.user.email,
      'Bo private about text',
      'Between Bo and Sy only',
      outChat,
    ]) {
      expect(text).not.toContain(leak);
    }
    expect(text).not.toMatch(/token_hash|password_hash|bm_sl_|\$argon2/);
  });

  it('is refused to a token narrowed below full access, and to nobody signed in', async () => {
    const me = await registerUser();
    await refused(exportMyData, {}, 'unauthorized');
    await updateTokens(me.id, { scopes: ['profile:read', 'buddy:read'] });
    await refused(exportMyData, { token: me.token }, 'insufficient_scope');
  });
});

describe('Delete my account', () => {
  it('takes everything away at once: token, sign-in, profile, Discover, requests, photo; the chat stays, from “a deleted member”; the email is free', async () => {
    const spot = openSea();
    // Discover never shows buddies, so a third person, not connected to Gil, looks for him there.
    const [gone, viewer, seer] = await Promise.all([
      completePerson('Going Gil', spot),
      completePerson('Staying Sue', spot),
      completePerson('Seeking Sam', spot),
    ]);
    const [asker, asked] = await Promise.all([
      registerUser({ displayName: 'Asker Ann' }),
      registerUser({ displayName: 'Asked Abe' }),
    ]);
    const chatId = await makeBuddies(gone, viewer, 'Nice to meet you');
    await say(gone, chatId, 'Meet at the pier');
    await askBuddy(asker, gone, { message: 'Hike?' });
    const sent = await askBuddy(gone, asked, { message: 'Or me to you' });
    const web = new WebClient();
    expect(pathOf((await web.signInWithPassword(gone.email, PASSWORD)).location)).toBe('/account');

    // Before: all of it is there.
    const found = await call(discover, { token: seer.token, query: { radius_km: 50, limit: 50 } });
    expect(found.results.map((r) => r.user.id)).toContain(gone.id);
    expect((await fetch(gone.photo.photoURL)).status).toBe(200);

    await refused(deleteMyAccount, { token: gone.token, body: { password: 'not the password' } }, 'wrong_password');
    await refused(deleteMyAccount, { token: gone.token, body: {} }, 'wrong_password');
    // Another account's password does not delete it, and its own token deletes only itself.
    await refused(deleteMyAccount, { token: viewer.token, body: { password: 'not the password' } }, 'wrong_password');
    expect((await call(getMe, { token: gone.token })).profile.id).toBe(gone.id);

    expect(await call(deleteMyAccount, { token: gone.token, body: { password: PASSWORD } })).toEqual({
      success: true,
      deleted: true,
    });

    // The person's own ways in are gone.
    await refused(getMe, { token: gone.token }, 'unauthorized');
    expect((await web.request('GET', getMe.path)).status).toBe(401);
    const again = new WebClient();
    expect(pathOf((await again.signInWithPassword(gone.email, PASSWORD)).location)).not.toBe('/account');
    expect(again.sessionCookie()).toBeUndefined();

    // Others no longer meet them.
    await refused(getPublicProfile, { params: { slug: gone.slug } }, 'not_found');
    await refused(getPublicProfile, { params: { slug: gone.id } }, 'not_found');
    expect((await fetch(`${baseUrl()}/u/${gone.slug}`)).status).toBe(404);
    const after = await call(discover, { token: seer.token, query: { radius_km: 50, limit: 50 } });
    expect(after.results.map((r) => r.user.id)).not.toContain(gone.id);
    for (const other of [asker, asked]) {
      const requests = await call(listBuddyRequests, { token: other.token });
      expect([...requests.sent, ...requests.received].map((r) => r.user.id)).not.toContain(gone.id);
    }
    expect(
      await testDb().selectFrom('buddy_requests').select('id').where('id', '=', sent.request.id).execute(),
    ).toEqual([]);

    // The other person keeps the conversation, from "a deleted member", and cannot write into it.
    const chats = await call(listChats, { token: viewer.token });
    const chat = chats.chats.find((c) => c.chatId === chatId);
    expect(chat?.buddy.displayName).toBe('a deleted member');
    expect(chat?.buddy.photoURL ?? null).toBeNull();
    const thread = await call(listMessages, { params: { chatId }, token: viewer.token });
    expect(thread.messages.map((m) => [m.from_me, m.text])).toEqual([
      [true, 'Nice to meet you'],
      [false, 'Meet at the pier'],
    ]);
    const write = await send(sendMessage, { params: { chatId }, token: viewer.token, body: { text: 'Hello?' } });
    expect(write.ok).toBe(false);

    // The photo answers 404 at once; its files are deleted by the job.
    expect((await fetch(gone.photo.photoURL)).status).toBe(404);
    expect((await fetch(gone.photo.thumbnailURL)).status).toBe(404);
    await waitFor(
      async () => {
        const rows = await testDb()
          .selectFrom('photos')
          .select('blobs_deleted_at')
          .where('user_id', '=', gone.id)
          .execute();
        return rows.every((r) => r.blobs_deleted_at !== null) ? true : undefined;
      },
      { what: 'the photo blobs to be deleted' },
    );

    // Nothing personal is left in the row, and nothing that could act for it.
    const row = await testDb().selectFrom('users').selectAll().where('id', '=', gone.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      disabled_reason: 'deleted',
      display_name: 'a deleted member',
      about_me: null,
      birthday: null,
      latitude: null,
      location: null,
      photo_url: null,
      activities: [],
    });
    expect(row.email).not.toContain(gone.email);
    for (const table of ['access_tokens', 'sessions', 'agent_actions', 'signin_links'] as const) {
      const left = await testDb()
        .selectFrom(table)
        .select(sql<number>`count(*)::int`.as('n'))
        .where('user_id', '=', gone.id)
        .executeTakeFirstOrThrow();
      expect(left.n, table).toBe(0);
    }

    // The address can sign up again, as somebody new.
    const reborn = await call(register, { body: { email: gone.email, displayName: 'Gil Again' } });
    expect(reborn.user.id).not.toBe(gone.id);
    // Deleting twice is not possible: the old token is simply unknown.
    await refused(deleteMyAccount, { token: gone.token, body: { password: PASSWORD } }, 'unauthorized');
  });

  it('on the web: a fresh sign-in confirms without a password, an old one needs it, and another site cannot', async () => {
    const me = await registerUser({ password: PASSWORD });
    const web = new WebClient();
    await web.signInWithPassword(me.user.email, PASSWORD);
    const json = { headers: { origin: ORIGIN() }, json: {} };
    // A cross-site request with the cookie is refused before anything is checked.
    expect(
      (
        await web.request('DELETE', contractPath(deleteMyAccount), {
          ...json,
          headers: { origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(403);

    // A session signed in an hour ago no longer stands in for the password.
    await testDb()
      .updateTable('sessions')
      .set({ created_at: sql`now() - interval '1 hour'` })
      .where('user_id', '=', me.id)
      .execute();
    const stale = await web.request('DELETE', contractPath(deleteMyAccount), json);
    expect([stale.status, stale.json.error.code]).toEqual([403, 'wrong_password']);

    await testDb().updateTable('sessions').set({ created_at: sql`now()` }).where('user_id', '=', me.id).execute();
    const fresh = await web.request('DELETE', contractPath(deleteMyAccount), json);
    expect([fresh.status, fresh.json]).toEqual([200, { success: true, deleted: true }]);
    expect((await web.request('GET', getMe.path)).status).toBe(401);
    await refused(getMe, { token: me.token }, 'unauthorized');
  });

  it('needs the account’s own password: a token with a wrong one, or an unknown id, deletes nothing', async () => {
    const [a, b] = await Promise.all([
      registerUser({ password: PASSWORD }),
      registerUser({ password: `${PASSWORD}!` }),
    ]);
    // B's token with A's password deletes nothing: the token names the account, the password must be its own.
    await refused(deleteMyAccount, { token: b.token, body: { password: PASSWORD } }, 'wrong_password');
    expect((await call(getMe, { token: a.token })).profile.id).toBe(a.id);
    expect((await call(getMe, { token: b.token })).profile.id).toBe(b.id);
  });
});

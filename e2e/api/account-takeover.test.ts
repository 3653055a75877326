// Issue 12, section 5: an account cannot be taken over before its owner arrives.
// Registration does not verify the address, so the attack is: register someone else's
// address, keep the token (and the generated password, and the mobile sign-in link), and
// read that person's chats once they start using the account. These tests perform it
// against the real server and database, then the owner of the mailbox follows "This
// wasn't me" from the mail the server really sent (the local outbox, DATA_DIR/mail).
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { discover, getOverlap } from '@/lib/contract/discover';
import { getMe, getPublicProfile, updateMe } from '@/lib/contract/profiles';
import { changePassword, exchangeSigninLink, listTokens } from '@/lib/contract/signin';
import { acceptBuddyRequest, listBuddyRequests, sendBuddyRequest } from '@/lib/contract/buddies';
import { listChats, listMessages, sendMessage } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import { blockUser, listBlocks } from '@/lib/contract/safety';
import { api, baseUrl, registerUser, testDb, uniqueEmail } from './client';
import { call, refused } from './contract-client';
import { askBuddy, makeBuddies, messageInput, say } from './social-helpers';
import { pathOf, WebClient } from './web-client';

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const HOSTILE = {
  displayName: 'Click here https://evil.example',
  agentName: '<a href="https://evil.example/login">Sign in</a>',
  agentSessionId: 'www.evil.example',
  aboutMe: 'Visit https://evil.example now',
  slug: 'evil-example-com',
};
const ORIGIN = () => new URL(baseUrl()).origin;

/** Every mail in the outbox addressed to `email`, decoded, oldest first; waits until there are at least `count`. */
async function mailsTo(email: string, count = 1): Promise<string[]> {
  const dir = path.join(inject('dataDir'), 'mail');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [])
      .map((file) => fs.readFileSync(path.join(dir, file), 'utf8'))
      .filter((raw) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi').test(raw));
    if (found.length >= count) {
      // The assertions below read the decoded text; a base64 part would hide it from them.
      for (const raw of found) expect(raw).not.toMatch(/Content-Transfer-Encoding: base64/i);
      return found.map(decodeQuotedPrintable);
    }
    if (Date.now() > deadline) throw new Error(`expected ${count} mails to ${email}, found ${found.length}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const notMeTokenIn = (mail: string) => /\/signin\/not-me\?token=(bm_nm_[\w-]+)/.exec(mail)?.[1];
const signinTokenIn = (mail: string) => /\/signin\/link\?token=(bm_sl_[\w-]+)/.exec(mail)?.[1];

async function userRow(id: string) {
  return testDb()
    .selectFrom('users')
    .select(['disabled_at', 'disabled_reason', 'onboarding_complete', 'email'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function notMeRow(token: string) {
  return testDb()
    .selectFrom('not_me_links')
    .select(['used_at', 'expires_at', 'created_at'])
    .where('token_hash', '=', sha256(token))
    .executeTakeFirstOrThrow();
}

/** The victim's "This wasn't me" button, as their browser sends it. */
function confirmNotMe(token: string, origin: string | null = ORIGIN()) {
  return new WebClient().request('POST', '/signin/not-me/confirm', {
    form: { token },
    headers: origin === null ? {} : { origin },
  });
}

describe('"This wasn\'t me" against an attacker who registered the victim\'s address', () => {
  it("ends the attacker's token, session and links, hides the account, refuses a replay, and a GET alone does nothing", async () => {
    const victim = uniqueEmail('victim');
    // The attacker registers the victim's address and keeps everything registration hands out.
    const attacker = await registerUser({ email: victim, ...HOSTILE });
    const attackerWeb = new WebClient();
    const signedIn = await attackerWeb.signInWithPassword(victim, attacker.auth.generated_password);
    expect(pathOf(signedIn.location)).toBe('/account');
    const mobileLink = new URL(attacker.auth.mobile_signin_url).searchParams.get('token')!;

    // What the attack reaches before the owner acts: the account's chats, through the kept token and session.
    const buddy = await registerUser({ displayName: 'Bea Buddy' });
    const chatId = await makeBuddies(buddy, attacker, 'Hi, nice to meet you!');
    await say(buddy, chatId, 'My number is 0123 456');
    const stolen = await call(listMessages, { params: { chatId }, token: attacker.token });
    expect(stolen.messages.map((m) => m.text)).toContain('My number is 0123 456');
    expect((await attackerWeb.request('GET', getMe.path)).status).toBe(200);

    // The victim's mail: the sign-in mail of the registration, with no text the attacker chose.
    const [mail] = await mailsTo(victim);
    expect(mail).toMatch(/^Subject: Your sign-in link/m);
    expect(mail).not.toMatch(/evil|Click here/i);
    for (const url of mail!.match(/https?:\/\/[^\s"<>]+/g)!) expect(url.startsWith(`${baseUrl()}/`)).toBe(true);
    expect(mail).toMatch(/<a href="[^"]+\/signin\/not-me\?token=bm_nm_[\w-]+">This wasn/);
    const token = notMeTokenIn(mail!)!;
    expect(token).toBeDefined();
    const stored = await notMeRow(token);
    // 30 days (the app's clock sets the expiry, the database's the creation time).
    expect(Math.abs(stored.expires_at.getTime() - stored.created_at.getTime() - 30 * 24 * 3600_000)).toBeLessThan(
      60_000,
    );

    // Link previews and mail scanners fetch GET URLs: none of these may act.
    const previewer = new WebClient();
    const page = await previewer.request('GET', `/signin/not-me?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Disable this Buddy Match account?');
    expect(page.text).toContain(victim);
    expect(page.text).not.toContain('evil.example');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect((await previewer.request('GET', `/signin/not-me?token=${token}&done=1`)).text).toContain(
      'Disable this Buddy Match account?',
    );
    const getConfirm = await previewer.request('GET', `/signin/not-me/confirm?token=${token}`);
    expect(getConfirm.status).toBe(303);
    expect(pathOf(getConfirm.location)).toBe(`/signin/not-me?token=${token}`);
    expect((await previewer.request('HEAD', `/signin/not-me?token=${token}`)).status).toBe(200);
    // A form on another site (or an opaque origin) is sent to the page instead.
    for (const origin of ['https://evil.example', 'null']) {
      const crossSite = await confirmNotMe(token, origin);
      expect(crossSite.status).toBe(303);
      expect(pathOf(crossSite.location)).toBe(`/signin/not-me?token=${token}`);
    }
    expect((await notMeRow(token)).used_at).toBeNull();
    expect((await userRow(attacker.id)).disabled_at).toBeNull();
    await call(getMe, { token: attacker.token });
    expect((await attackerWeb.request('GET', getMe.path)).status).toBe(200);

    // The victim presses the button.
    const confirmed = await confirmNotMe(token);
    expect(confirmed.status).toBe(303);
    expect(pathOf(confirmed.location)).toBe(`/signin/not-me?token=${token}&done=1`);
    const done = await new WebClient().request('GET', pathOf(confirmed.location));
    expect(done.text).toContain('The account is disabled');
    expect(done.text).toContain('every assistant’s access is revoked and every signed-in browser is signed out');

    // Stored effect: disabled, every token revoked, every session gone, every link spent.
    const row = await userRow(attacker.id);
    expect(row.disabled_at).not.toBeNull();
    expect(row.disabled_reason).toBe('not_me');
    const tokens = await testDb()
      .selectFrom('access_tokens')
      .select('revoked_at')
      .where('user_id', '=', attacker.id)
      .execute();
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((t) => t.revoked_at !== null)).toBe(true);
    expect(
      await testDb().selectFrom('sessions').select('id').where('user_id', '=', attacker.id).execute(),
    ).toHaveLength(0);
    const links = await testDb()
      .selectFrom('signin_links')
      .select('used_at')
      .where('user_id', '=', attacker.id)
      .execute();
    expect(links.every((l) => l.used_at !== null)).toBe(true);

    // The attacker is out: token, session, kept mobile link, generated password.
    await refused(getMe, { token: attacker.token }, 'unauthorized');
    await refused(listMessages, { params: { chatId }, token: attacker.token }, 'unauthorized');
    expect((await attackerWeb.request('GET', getMe.path)).status).toBe(401);
    await refused(exchangeSigninLink, { body: { token: mobileLink } }, 'signin_link_used');
    const again = new WebClient();
    expect(pathOf((await again.signInWithPassword(victim, attacker.auth.generated_password)).location)).toMatch(
      /code=credentials/,
    );
    expect(again.sessionCookie()).toBeUndefined();

    // Nobody sees the account any more: profile by slug and by id, the web profile, the chat.
    for (const slugOrId of [attacker.slug, attacker.id]) {
      await refused(getPublicProfile, { params: { slug: slugOrId }, token: buddy.token }, 'not_found');
    }
    expect((await fetch(`${baseUrl()}/u/${attacker.slug}`)).status).toBe(404);
    const chats = await call(listChats, { token: buddy.token });
    expect(chats.chats.map((c) => c.chatId)).not.toContain(chatId);
    await refused(listMessages, { params: { chatId }, token: buddy.token }, 'not_found');
    await refused(sendMessage, messageInput(buddy, chatId, 'still there?'), 'not_found');

    // Replaying the link acts no more: same answer as an unknown link, nothing changes.
    const replay = await confirmNotMe(token);
    expect(replay.status).toBe(303);
    expect(pathOf(replay.location)).toBe(`/signin/not-me?token=${token}`);
    expect((await userRow(attacker.id)).disabled_at).toEqual(row.disabled_at);
    expect((await new WebClient().request('GET', `/signin/not-me?token=${token}`)).text).toContain(
      'This link has already been used',
    );

    // "Email me a link" for the address now finds no account: no mail, no link.
    const asker = new WebClient();
    await asker.request('POST', '/auth/signin/email', { form: { csrfToken: await asker.csrf(), email: victim } });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job
      where name = 'mail-magic-link' and data->>'userId' = ${attacker.id}`.execute(testDb());
    expect(rows[0]!.n).toBe(1); // the registration's, nothing since

    // The address is free: the real owner signs up with their own agent.
    const owner = await registerUser({ email: victim, displayName: 'The Real Owner' });
    expect(owner.id).not.toBe(attacker.id);
    expect((await call(getMe, { token: owner.token })).profile.displayName).toBe('The Real Owner');
    expect((await userRow(attacker.id)).disabled_at).not.toBeNull();
    // And while it is live, the address is taken again.
    await refused(register, { body: { email: victim.toUpperCase(), displayName: 'Third' } }, 'email_taken');
  });

  it('lets exactly one of two simultaneous uses act', async () => {
    const victim = uniqueEmail('race');
    const attacker = await registerUser({ email: victim });
    const token = notMeTokenIn((await mailsTo(victim))[0]!)!;
    const results = await Promise.all([confirmNotMe(token), confirmNotMe(token)]);
    expect(results.map((r) => pathOf(r.location)).sort()).toEqual([
      `/signin/not-me?token=${token}`,
      `/signin/not-me?token=${token}&done=1`,
    ]);
    expect((await userRow(attacker.id)).disabled_at).not.toBeNull();
  });

  it.each([
    ['an unknown link', () => `bm_nm_${randomBytes(32).toString('base64url')}`, 'This link isn’t valid'],
    ['a link cut short', () => 'bm_nm_abc', 'This link isn’t valid'],
    ['a sign-in link instead', () => `bm_sl_${randomBytes(32).toString('base64url')}`, 'This link isn’t valid'],
    ['an over-long link', () => `bm_nm_${'a'.repeat(300)}`, 'This link isn’t valid'],
    ['no token at all', () => '', 'This link isn’t valid'],
  ])('changes nothing for %s and says so', async (_name, makeToken, heading) => {
    const token = makeToken();
    const res = await confirmNotMe(token);
    expect(res.status).toBe(303);
    expect(pathOf(res.location)).toBe(token ? `/signin/not-me?token=${token}` : '/signin/not-me');
    const page = await new WebClient().request('GET', pathOf(res.location));
    expect(page.status).toBe(200);
    expect(page.text).toContain(heading);
    expect(page.text).toContain('Nothing was changed.');
    expect(page.text).toContain('Email me a sign-in link');
  });

  it('refuses an expired link, and a fresh sign-in mail carries a new one that works', async () => {
    const victim = uniqueEmail('late');
    const attacker = await registerUser({ email: victim });
    const first = notMeTokenIn((await mailsTo(victim))[0]!)!;
    await testDb()
      .updateTable('not_me_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', sha256(first))
      .execute();
    const expired = await confirmNotMe(first);
    expect(pathOf(expired.location)).toBe(`/signin/not-me?token=${first}`);
    expect((await new WebClient().request('GET', `/signin/not-me?token=${first}`)).text).toContain(
      'This link has expired',
    );
    expect((await userRow(attacker.id)).disabled_at).toBeNull();
    await call(getMe, { token: attacker.token });

    // "Email me a link" mails the address a sign-in link and a new "This wasn't me" link.
    const web = new WebClient();
    const asked = await web.request('POST', '/auth/signin/email', {
      form: { csrfToken: await web.csrf(), email: victim },
    });
    expect(pathOf(asked.location)).toBe('/signin/check-email');
    const second = (await mailsTo(victim, 2))[1]!;
    expect(second).toMatch(/Someone asked for a link to sign in/);
    expect(signinTokenIn(second)).toBeDefined();
    const fresh = notMeTokenIn(second)!;
    expect(fresh).not.toBe(first);
    expect(pathOf((await confirmNotMe(fresh)).location)).toBe(`/signin/not-me?token=${fresh}&done=1`);
    await refused(getMe, { token: attacker.token }, 'unauthorized');
  });

  it('still tells the address when the attacker asks for no email (emailMagicLink: false)', async () => {
    const victim = uniqueEmail('quiet');
    const attacker = await registerUser({ email: victim, emailMagicLink: false, displayName: HOSTILE.displayName });
    expect(attacker.auth.emailed_magic_link).toBe(false);
    const [notice] = await mailsTo(victim);
    expect(notice).toMatch(/^Subject: A Buddy Match account was created with your email address/m);
    expect(signinTokenIn(notice!)).toBeUndefined();
    expect(notice).not.toMatch(/evil|Click here/i);
    const token = notMeTokenIn(notice!)!;
    expect(pathOf((await confirmNotMe(token)).location)).toBe(`/signin/not-me?token=${token}&done=1`);
    await refused(getMe, { token: attacker.token }, 'unauthorized');
  });
});

describe('a disabled account is hidden from everyone, like a block', () => {
  const KM_PER_DEGREE = 111.2;
  async function completePerson(name: string, northKm: number) {
    const user = await registerUser({
      displayName: name,
      aboutMe: `I am ${name}`,
      location: 'Open sea',
      coords: { latitude: -40 + northKm / KM_PER_DEGREE, longitude: -30 },
      gender: 'female',
      birthday: '1990-06-15',
      activities: ['chess'],
      availability_text: 'weekends',
    });
    await testDb()
      .updateTable('users')
      .set({ photo_url: `https://example.com/${user.slug}.jpg` })
      .where('id', '=', user.id)
      .execute();
    const patch = await call(updateMe, { token: user.token, body: { aboutMe: `I am ${name}!` } });
    expect(patch.onboarding.complete).toBe(true);
    return user;
  }
  const discovered = async (viewer: { token: string }) => {
    const res = await call(discover, { query: { radius_km: 50, limit: 50 }, token: viewer.token });
    return res.results.map((r) => r.user.id);
  };

  it('leaves Discover, requests, blocks and overlap, and stays out of Discover whatever writes the row later', async () => {
    const viewer = await completePerson('Vera Viewer', 0);
    const gone = await completePerson('Gus Gone', 3);
    const blocker = await registerUser({ displayName: 'Bo Blocker' });
    expect(await discovered(viewer)).toContain(gone.id);
    await askBuddy(gone, viewer, { message: 'Chess on Saturday?' });
    await call(blockUser, { params: { slug: gone.slug }, token: blocker.token });
    const pending = await call(listBuddyRequests, { token: viewer.token });
    const request = pending.received.find((r) => r.user.id === gone.id);
    expect(request).toBeDefined();

    const token = notMeTokenIn((await mailsTo(gone.user.email))[0]!)!;
    expect(pathOf((await confirmNotMe(token)).location)).toContain('done=1');

    expect(await discovered(viewer)).not.toContain(gone.id);
    const postings = await testDb()
      .selectFrom('discover_postings')
      .select('user_id')
      .where('user_id', '=', gone.id)
      .execute();
    expect(postings).toHaveLength(0);
    // The geocoding job and photo moderation recompute completeness; the trigger holds it false.
    await testDb().updateTable('users').set({ onboarding_complete: true }).where('id', '=', gone.id).execute();
    expect((await userRow(gone.id)).onboarding_complete).toBe(false);
    expect(await discovered(viewer)).not.toContain(gone.id);

    const after = await call(listBuddyRequests, { token: viewer.token });
    expect(JSON.stringify(after)).not.toContain(gone.id);
    await refused(
      acceptBuddyRequest,
      { params: { invitationId: request?.id ?? 'none' }, token: viewer.token },
      'not_found',
    );
    const inbox = await call(getInbox, { token: viewer.token });
    expect(JSON.stringify(inbox)).not.toContain(gone.id);
    await refused(getOverlap, { params: { slug: gone.slug }, token: viewer.token }, 'not_found');
    await refused(sendBuddyRequest, { params: { slug: gone.slug }, token: viewer.token, body: {} }, 'not_found');
    const blocks = await call(listBlocks, { token: blocker.token });
    expect(JSON.stringify(blocks)).not.toContain(gone.id);
  });
});

describe('POST /api/v1/me/password.json with revokeAllTokens', () => {
  const PASSWORD = 'correct horse battery';

  it.each([
    ['true', true, 2],
    ['false', false, 0],
    ['left out', undefined, 0],
  ])(
    'revokes every access token when %s, in the same change that ends the other sessions',
    async (_name, revokeAllTokens, expectedRevoked) => {
      const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
      const link = new URL(user.auth.mobile_signin_url).searchParams.get('token') ?? '';
      const appToken = (await call(exchangeSigninLink, { body: { token: link } })).auth.token;
      const web = new WebClient();
      await web.signInWithPassword(user.user.email, PASSWORD);
      const other = new WebClient();
      await other.signInWithPassword(user.user.email, PASSWORD);

      const res = await web.request('POST', changePassword.path, {
        json: {
          currentPassword: PASSWORD,
          newPassword: 'a brand new passphrase',
          ...(revokeAllTokens === undefined ? {} : { revokeAllTokens }),
        },
        headers: { origin: ORIGIN() },
      });
      expect(res.status).toBe(200);
      expect(changePassword.response.parse(res.json)).toEqual({
        success: true,
        signed_out_sessions: 1,
        revoked_tokens: expectedRevoked,
      });
      for (const token of [user.token, appToken]) {
        if (revokeAllTokens) await refused(getMe, { token }, 'unauthorized');
        else await call(getMe, { token });
      }
      expect((await other.request('GET', getMe.path)).status).toBe(401);
      expect((await web.request('GET', getMe.path)).status).toBe(200);
      const live = await testDb()
        .selectFrom('access_tokens')
        .select('id')
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .execute();
      expect(live).toHaveLength(revokeAllTokens ? 0 : 2);
    },
  );

  it('revokes the calling token too when an agent asks for it', async () => {
    const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
    const body = { currentPassword: PASSWORD, newPassword: 'another passphrase', revokeAllTokens: true };
    const res = await call(changePassword, { token: user.token, body });
    expect(res.revoked_tokens).toBe(1);
    await refused(listTokens, { token: user.token }, 'unauthorized');
  });

  it('changes nothing when the current password is wrong', async () => {
    const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
    const body = { currentPassword: 'not it at all', newPassword: 'another passphrase', revokeAllTokens: true };
    await refused(changePassword, { token: user.token, body }, 'wrong_password');
    await call(getMe, { token: user.token });
  });

  it('refuses a revokeAllTokens that is not a boolean', async () => {
    const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
    // Raw: a string where the type says boolean, on purpose.
    const res = await api('POST', changePassword.path, {
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword: 'another passphrase', revokeAllTokens: 'yes' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toHaveProperty('revokeAllTokens');
    await call(getMe, { token: user.token });
  });
});

describe('token confirmation', () => {
  it('lists every token as unconfirmed until the person keeps it on the web', async () => {
    const user = await registerUser({ agentName: 'HelperBot' });
    const [token] = (await call(listTokens, { token: user.token })).tokens;
    expect(token).toMatchObject({ agentName: 'HelperBot', label: 'registration', confirmed_at: null, active: true });
  });
});

// Issue 12 §6: a stranger cannot lock a person out. Failed passwords count per (account,
// client address), per client address, and towards an account-wide backoff that only a
// guesser spread over many addresses reaches (20 failures in 24 h, then pauses of 1, 2,
// 4 … 60 minutes), from which addresses the account recently signed in from are exempt.
// The emailed link works throughout, and every refusal says when to try again.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { changePassword } from '@/lib/contract/signin';
import { freshIp, registerUser, testDb, uniqueEmail } from './client';
import { refused as refusedCall } from './contract-client';
import { nextMailedLinkToken, mailedLinkTokens, pathOf, WebClient } from './web-client';

const PASSWORD = 'correct horse battery';
const registered = () => registerUser({ password: PASSWORD, emailMagicLink: false });
const keyOf = (email: string) => email.toLowerCase();

/** Where a sign-in landed, with the refusal's reason and seconds left when refused. */
function outcome(location: string | null) {
  if (!location) throw new Error('The sign-in did not redirect');
  const url = new URL(location);
  const until = url.searchParams.get('until');
  return {
    path: url.pathname,
    code: url.searchParams.get('code'),
    error: url.searchParams.get('error'),
    reason: url.searchParams.get('reason'),
    secondsLeft: until === null ? null : Number(until) - Date.now() / 1000,
  };
}

async function failuresOf(email: string) {
  return testDb()
    .selectFrom('auth_attempts')
    .select(['ip', 'created_at'])
    .where('kind', '=', 'password_failure')
    .where('account_key', '=', keyOf(email))
    .execute();
}

/** `n` wrong passwords, each from its own new address (a guesser spread over many addresses). */
async function distributedGuesses(email: string, n: number) {
  const results = [];
  for (let i = 0; i < n; i++)
    results.push(outcome((await new WebClient().signInWithPassword(email, `guess-${i}`)).location));
  return results;
}

/** Moves every recorded failure of the account `seconds` into the past. */
async function age(email: string, seconds: number) {
  await testDb()
    .updateTable('auth_attempts')
    .set({ created_at: sql`created_at - make_interval(secs => ${seconds})` })
    .where('account_key', '=', keyOf(email))
    .execute();
}

describe('a stranger failing from another address', () => {
  it('does not stop the owner’s right password from the owner’s address', async () => {
    const user = await registered();
    const stranger = freshIp();
    const tries = [];
    for (let i = 0; i < 10; i++)
      tries.push(outcome((await new WebClient(stranger).signInWithPassword(user.user.email, `guess-${i}`)).location));
    expect(tries.map((t) => t.code)).toEqual([...Array(5).fill('credentials'), ...Array(5).fill('rate_limited')]);
    expect(tries[9]).toMatchObject({ reason: 'account_here' });
    expect(tries[9]?.secondsLeft).toBeGreaterThan(800);
    expect(await failuresOf(user.user.email)).toHaveLength(5); // refusals are not counted

    const owner = new WebClient();
    const res = await owner.signInWithPassword(user.user.email, PASSWORD);
    expect(pathOf(res.location)).toBe('/account');
    expect(owner.sessionCookie()).toBeDefined();
    // The stranger's failures are not forgiven by the owner's success.
    expect(await failuresOf(user.user.email)).toHaveLength(5);
    expect(outcome((await new WebClient(stranger).signInWithPassword(user.user.email, PASSWORD)).location).reason).toBe(
      'account_here',
    );
  });

  it.each([
    ['an account', async () => (await registered()).user.email],
    ['an email without an account', async () => uniqueEmail('nobody')],
  ])('is refused the same way for %s (no enumeration)', async (_name, emailFor) => {
    const email = await emailFor();
    const stranger = freshIp();
    const tries = [];
    for (let i = 0; i < 6; i++)
      tries.push(outcome((await new WebClient(stranger).signInWithPassword(email, `guess-${i}`)).location));
    expect(tries.map((t) => t.code)).toEqual([...Array(5).fill('credentials'), 'rate_limited']);
    expect(tries[5]).toMatchObject({ path: '/signin', error: 'CredentialsSignin', reason: 'account_here' });
    const spread = await distributedGuesses(email, 16);
    expect(spread.filter((t) => t.code === 'credentials')).toHaveLength(15);
    expect(spread[15]).toMatchObject({ code: 'rate_limited', reason: 'account' });
  });
});

describe('a guesser spread over many addresses', () => {
  it('hits the account-wide backoff after 20 failures, and it doubles with each further failure', async () => {
    const user = await registered();
    const guesses = await distributedGuesses(user.user.email, 22);
    expect(guesses.slice(0, 20).map((g) => g.code)).toEqual(Array(20).fill('credentials'));
    for (const refused of guesses.slice(20)) {
      expect(refused).toMatchObject({ code: 'rate_limited', reason: 'account' });
      expect(refused.secondsLeft).toBeGreaterThan(50);
      expect(refused.secondsLeft).toBeLessThanOrEqual(61);
    }
    expect(await failuresOf(user.user.email)).toHaveLength(20);

    // The owner from an address the account never signed in from is paused too (the link still works, below).
    const owner = new WebClient();
    expect(outcome((await owner.signInWithPassword(user.user.email, PASSWORD)).location)).toMatchObject({
      code: 'rate_limited',
      reason: 'account',
    });

    // After the pause one more guess is checked, and the next pause is twice as long.
    await age(user.user.email, 61);
    const [next] = await distributedGuesses(user.user.email, 1);
    expect(next?.code).toBe('credentials');
    const [after] = await distributedGuesses(user.user.email, 1);
    expect(after).toMatchObject({ code: 'rate_limited', reason: 'account' });
    expect(after?.secondsLeft).toBeGreaterThan(110);
    expect(after?.secondsLeft).toBeLessThanOrEqual(121);

    // The pause is capped at an hour, however many failures pile up.
    expect(await failuresOf(user.user.email)).toHaveLength(21);
    await testDb()
      .insertInto('auth_attempts')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          kind: 'password_failure' as const,
          account_key: keyOf(user.user.email),
          ip: `192.0.2.${i}`,
          created_at: sql`now() - interval '2 hours'`,
        })),
      )
      .execute();
    const [capped] = await distributedGuesses(user.user.email, 1);
    expect(capped?.reason).toBe('account');
    expect(capped?.secondsLeft).toBeGreaterThan(3500);
    expect(capped?.secondsLeft).toBeLessThanOrEqual(3601);
  });

  it('holds the backoff exactly when the guesses arrive at once', async () => {
    const user = await registered();
    const results = await Promise.all(
      Array.from({ length: 30 }, async (_, i) =>
        outcome((await new WebClient().signInWithPassword(user.user.email, `guess-${i}`)).location),
      ),
    );
    expect(results.filter((r) => r.code === 'credentials')).toHaveLength(20);
    expect(results.filter((r) => r.code === 'rate_limited' && r.reason === 'account')).toHaveLength(10);
    expect(await failuresOf(user.user.email)).toHaveLength(20);
  });

  it('does not pause the owner at an address the account recently signed in from', async () => {
    const user = await registered();
    const home = freshIp();
    expect(pathOf((await new WebClient(home).signInWithPassword(user.user.email, PASSWORD)).location)).toBe('/account');
    const known = await testDb()
      .selectFrom('signin_addresses')
      .select('ip')
      .where('account_key', '=', keyOf(user.user.email))
      .execute();
    expect(known.map((k) => k.ip)).toEqual([home]);

    await distributedGuesses(user.user.email, 21);
    expect(outcome((await new WebClient().signInWithPassword(user.user.email, PASSWORD)).location).reason).toBe(
      'account',
    );
    const atHome = new WebClient(home);
    expect(pathOf((await atHome.signInWithPassword(user.user.email, PASSWORD)).location)).toBe('/account');
    expect(atHome.sessionCookie()).toBeDefined();

    // …but home's own wrong passwords are still limited like anyone's (5 per 15 minutes).
    const mine = [];
    for (let i = 0; i < 6; i++)
      mine.push(outcome((await new WebClient(home).signInWithPassword(user.user.email, `typo-${i}`)).location));
    expect(mine.map((m) => m.code)).toEqual([...Array(5).fill('credentials'), 'rate_limited']);
    expect(mine[5]?.reason).toBe('account_here');

    // An address known for more than 30 days is forgotten.
    await testDb()
      .updateTable('signin_addresses')
      .set({ last_success_at: sql`now() - interval '31 days'` })
      .where('account_key', '=', keyOf(user.user.email))
      .execute();
    await age(user.user.email, 16 * 60); // home's own typos leave their window; the 32-minute backoff has not passed
    expect(outcome((await new WebClient(home).signInWithPassword(user.user.email, PASSWORD)).location).reason).toBe(
      'account',
    );
  });
});

describe('the emailed link while password sign-in is paused', () => {
  it('still signs in, after the account-wide backoff and after the per-address pause', async () => {
    const user = await registered();
    const owner = new WebClient();
    // Paused from the owner's address (own typos) …
    for (let i = 0; i < 5; i++) await owner.signInWithPassword(user.user.email, `typo-${i}`);
    // … and account-wide (strangers everywhere).
    await distributedGuesses(user.user.email, 16);
    expect(outcome((await owner.signInWithPassword(user.user.email, PASSWORD)).location)).toMatchObject({
      code: 'rate_limited',
    });

    const seen = mailedLinkTokens(user.user.email);
    const asked = await owner.requestSigninLink(user.user.email);
    expect(pathOf(asked.location)).toBe('/signin/check-email');
    const token = await nextMailedLinkToken(user.user.email, seen);
    const used = await owner.request('POST', `/auth/callback/email?token=${token}&callbackUrl=/account`);
    expect(pathOf(used.location)).toBe('/account');
    const me = await owner.request('GET', '/api/v1/me.json');
    expect(me.status).toBe(200);
    expect(me.json.profile.id).toBe(user.id);
  });
});

describe('every refusal says when to try again', () => {
  it('on the sign-in page, for each kind of password pause', async () => {
    const user = await registered();
    const stranger = new WebClient();
    for (let i = 0; i < 5; i++) await stranger.signInWithPassword(user.user.email, `guess-${i}`);
    const here = await stranger.signInWithPassword(user.user.email, PASSWORD);
    const page = await stranger.request('GET', pathOf(here.location));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Too many wrong passwords for this account from your network');
    expect(page.text).toMatch(/Try again in 1[45] minutes\./);
    expect(page.text).toContain('emailed link');

    await distributedGuesses(user.user.email, 15);
    const everywhere = await new WebClient().signInWithPassword(user.user.email, PASSWORD);
    expect(outcome(everywhere.location).reason).toBe('account');
    const explained = await new WebClient().request('GET', pathOf(everywhere.location));
    expect(explained.text).toContain('Too many wrong passwords for this account from many places');
    expect(explained.text).toMatch(/Try again in (\d+ seconds|1 minute)\./);
  });

  it('on the sign-in page, for link requests, in words that do not depend on whether an account exists', async () => {
    const texts = [];
    for (const email of [(await registered()).user.email, uniqueEmail('nobody')]) {
      for (let i = 0; i < 5; i++)
        expect(pathOf((await new WebClient().requestSigninLink(email)).location)).toBe('/signin/check-email');
      const refused = await new WebClient().requestSigninLink(email);
      expect(outcome(refused.location)).toMatchObject({ path: '/signin', error: 'AccessDenied', reason: 'email' });
      const page = await new WebClient().request('GET', pathOf(refused.location));
      // The page's error summary: <div role="alert" …><p><strong>words</strong></p>.
      const alert = /role="alert"[^>]*><p>(?:<strong>)?(.*?)(?:<\/strong>)?<\/p>/.exec(page.text)?.[1];
      expect(alert).toMatch(/You can ask for another link in (59|60) minutes\./);
      texts.push(String(alert).replace(/\d+ minutes/, 'N minutes'));
    }
    expect(texts[1]).toBe(texts[0]);
  });

  it('in 429 answers of the JSON API, with Retry-After, for each kind of pause', async () => {
    const user = await registered();
    const change = (ip: string, currentPassword: string, code: 'wrong_password' | 'rate_limited') =>
      refusedCall(
        changePassword,
        { ip, token: user.token, body: { currentPassword, newPassword: 'another long passphrase' } },
        code,
      );
    const mine = freshIp();
    for (let i = 0; i < 5; i++) await change(mine, `wrong-${i}`, 'wrong_password');
    const here = await change(mine, PASSWORD, 'rate_limited');
    expect(Number(here.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(here.message).toMatch(/from your network.*Try again in 1[45] minutes\./);
    expect(here.hint).toBeTruthy();

    for (let i = 0; i < 15; i++) await change(freshIp(), `wrong-${i}`, 'wrong_password');
    const everywhere = await change(freshIp(), PASSWORD, 'rate_limited');
    const retryAfter = Number(everywhere.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(everywhere.message).toMatch(/from many places.*Try again in (\d+ seconds|1 minute)\./);

    const network = freshIp();
    for (let i = 0; i < 20; i++)
      await new WebClient(network).signInWithPassword(uniqueEmail(`spray${i}`), 'whatever-password');
    const sprayed = await change(network, PASSWORD, 'rate_limited');
    expect(sprayed.message).toMatch(
      /from your network, so password attempts from here are paused\. Try again in 1[45] minutes\./,
    );
    expect(Number(sprayed.headers.get('retry-after'))).toBeGreaterThan(800);
  });
});

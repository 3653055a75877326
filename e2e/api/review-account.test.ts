// Issue 47: the review account (REVIEW_ACCOUNT). A second server with the switch on, on the shared
// database, makes the review world at start and prints its credentials in its log; the reviewer
// signs in with them as the web does and finds every sample; then the attacks: a real member near
// the review account finds none of its people in Discover or meetup search, their pages and every
// path naming them answer as no one does, and the review account reaches no real member either.
// A restart with the switch off takes every row away.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/stack';
import { waitFor } from '../support/wait';
import { api, freshIp, TINY_PNG_BASE64, testDb, uniqueEmail } from './client';
import { WebClient } from './web-client';

// Lisbon, where lib/review/sample.ts puts the review people.
const LISBON = { latitude: 38.7223, longitude: -9.1393 };

interface Credentials {
  email: string;
  password: string;
  signin_url: string;
  profile: string;
}

/** The review_account line(s) a server wrote to its own log. */
function logEvents(server: ServerProcess, event: string): Record<string, unknown>[] {
  return fs
    .readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((fields) => fields.event === event);
}

const startWith = (value: string, logName: string) =>
  startServerProcess({
    databaseUrl: inject('databaseUrl'),
    dataDir: inject('dataDir'),
    env: { REVIEW_ACCOUNT: value },
    logName,
  });

const sandboxIds = async () =>
  (await testDb().selectFrom('users').select('id').where('review_sandbox', '=', true).execute()).map((r) => r.id);

let review: ServerProcess | undefined;
let credentials: Credentials;
let reviewer: WebClient;

beforeAll(async () => {
  review = await startWith('1', 'server-review.log');
  const [line] = logEvents(review, 'review_account');
  credentials = line as unknown as Credentials;
  reviewer = new WebClient(freshIp(), review.baseUrl);
}, 120_000);
afterAll(async () => review?.stop());

/** A real member near the review people, complete, who would find them if anything let them through. */
async function realMember() {
  const res = await api('POST', '/api/v1/register.json', {
    base: review!.baseUrl,
    body: {
      email: uniqueEmail('review-attacker'),
      displayName: 'Real Member',
      aboutMe: 'Lives in Lisbon and hikes on weekends.',
      location: 'Lisbon, Portugal',
      coords: { latitude: LISBON.latitude + 0.005, longitude: LISBON.longitude },
      gender: 'female',
      birthday: '1990-01-01',
      activities: ['hiking', 'board games', 'running', 'cycling', 'coffee'],
      availability_text: 'weekday evenings, weekends',
      photo: TINY_PNG_BASE64,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = res.body.auth.token as string;
  // Complete once the photo's moderation job has kept it.
  let last: unknown;
  await waitFor(
    async () => {
      const me = await api('GET', '/api/v1/me.json', { token, base: review!.baseUrl });
      last = me.body.profile?.onboarding;
      return me.body.profile?.onboarding?.complete ? true : undefined;
    },
    { what: 'a complete profile', timeoutMs: 5000 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(last)}`);
  });
  return { id: res.body.user.id as string, slug: res.body.user.slug as string, token };
}

describe('the review account', () => {
  it('prints its credentials once, in one line, with no hash', () => {
    const lines = logEvents(review!, 'review_account');
    expect(lines).toHaveLength(1);
    expect(credentials.email).toBe('review@localhost');
    expect(credentials.password).toMatch(/^\w{5}-\w{5}-\w{5}-\w{5}$/);
    expect(credentials.signin_url).toBe(`${review!.baseUrl}/signin`);
    expect(fs.readFileSync(review!.logFile, 'utf8')).not.toMatch(/\$argon2/);
  });

  it('signs in with its password on the web, with no second step, and finds every sample', async () => {
    const signedIn = await reviewer.signInWithPassword(credentials.email, credentials.password);
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).not.toMatch(/error/);
    expect(reviewer.sessionCookie()).toBeTruthy();

    const chats = await reviewer.request('GET', '/api/v1/chats.json');
    expect(chats.status).toBe(200);
    const buddies = chats.json.chats.map((chat: { buddy: { displayName: string } }) => chat.buddy.displayName);
    expect(buddies.sort()).toEqual(['Ana Sousa', 'Marco Rossi', 'Priya Nair']);
    const ana = chats.json.chats.find(
      (chat: { buddy: { displayName: string } }) => chat.buddy.displayName === 'Ana Sousa',
    );
    const messages = await reviewer.request('GET', `/api/v1/chats/${ana.chatId}/messages.json`);
    expect(messages.json.messages.length).toBeGreaterThanOrEqual(4);

    const requests = await reviewer.request('GET', '/api/v1/buddy_requests.json?state=pending');
    expect(requests.json.received.map((r: { user: { displayName: string } }) => r.user.displayName)).toEqual([
      'Tomás Costa',
    ]);

    const stored = await testDb()
      .selectFrom('plans')
      .innerJoin('users', 'users.id', 'plans.proposer_id')
      .select(['plans.status', 'plans.starts_at'])
      .where('users.review_sandbox', '=', true)
      .execute();
    expect(stored.map((p) => p.status).sort()).toEqual(['confirmed', 'proposed']);
    for (const plan of stored) expect(new Date(plan.starts_at).getTime()).toBeGreaterThan(Date.now());

    const meetups = await reviewer.request('GET', '/api/v1/meetups.json?view=mine');
    expect(meetups.status).toBe(200);
    expect(meetups.json.results).toHaveLength(1);

    const discover = await reviewer.request('GET', '/api/v1/discover.json');
    expect(discover.status).toBe(200);
    expect(discover.json.results).toEqual([]);
    expect(discover.json.empty_reason).toMatch(/review account/);
  });

  it('keeps the backoff: a wrong password is refused and counted', async () => {
    const wrong = await new WebClient(freshIp(), review!.baseUrl).signInWithPassword(credentials.email, 'not-it');
    expect(wrong.location).toMatch(/error/);
    const failures = await testDb()
      .selectFrom('auth_attempts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('kind', '=', 'password_failure')
      .where('account_key', '=', credentials.email)
      .executeTakeFirstOrThrow();
    expect(Number(failures.n)).toBeGreaterThanOrEqual(1);
  });

  it('has no Discover postings, and a real member next door finds none of its people', async () => {
    const ids = await sandboxIds();
    expect(ids).toHaveLength(5);
    const postings = await testDb()
      .selectFrom('discover_postings')
      .select('user_id')
      .where('user_id', 'in', ids)
      .execute();
    expect(postings).toEqual([]);

    const member = await realMember();
    for (const activities of ['hiking', 'board_games', 'cycling,running']) {
      const found = await api('GET', `/api/v1/discover.json?activities=${activities}&radius_km=50&limit=50`, {
        token: member.token,
        base: review!.baseUrl,
      });
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect(found.body.results.map((r: { id: string }) => r.id).filter((id: string) => ids.includes(id))).toEqual([]);
    }
    const meetups = await api('GET', '/api/v1/meetups.json?activities=board_games&radius_km=50', {
      token: member.token,
      base: review!.baseUrl,
    });
    expect(meetups.status).toBe(200);
    expect(meetups.body.results).toEqual([]);
  });

  it('answers every path naming its people as no one, for a real member and signed out', async () => {
    const member = await realMember();
    const people = await testDb()
      .selectFrom('users')
      .select(['id', 'slug'])
      .where('review_sandbox', '=', true)
      .execute();
    const meetup = await testDb()
      .selectFrom('meetups')
      .innerJoin('users', 'users.id', 'meetups.host_id')
      .select('meetups.id')
      .where('users.review_sandbox', '=', true)
      .executeTakeFirstOrThrow();
    const call = (method: string, path: string, body?: unknown, token: string | undefined = member.token) =>
      api(method, path, { token, body, base: review!.baseUrl });
    // Each path as it answers for a made-up name: a review person must get exactly that.
    const paths = (slugOrId: string) =>
      [
        ['GET', `/api/v1/users/${slugOrId}/profile.json`, undefined, member.token],
        ['GET', `/api/v1/users/${slugOrId}/profile.json`, undefined, undefined],
        ['POST', `/api/v1/users/${slugOrId}/buddy_request.json`, { message: 'Hi!' }, member.token],
        ['POST', `/api/v1/users/${slugOrId}/block.json`, {}, member.token],
        ['POST', `/api/v1/users/${slugOrId}/report.json`, { reason: 'spam' }, member.token],
        ['GET', `/api/v1/users/${slugOrId}/plan_options.json`, undefined, member.token],
      ] as const;
    const MADE_UP = 'no-such-person-r47';
    const nobody = [];
    for (const [method, path, body, token] of paths(MADE_UP)) nobody.push(await call(method, path, body, token));

    for (const person of people) {
      for (const slugOrId of [person.slug, person.id]) {
        for (const [i, [method, path, body, token]] of paths(slugOrId).entries()) {
          const res = await call(method, path, body, token);
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(res.status).toBe(nobody[i]!.status);
          expect(res.body.error.code).toBe(nobody[i]!.body.error.code);
          expect(res.body.error.hint).toBe(nobody[i]!.body.error.hint);
          expect(res.body.error.message).toBe(nobody[i]!.body.error.message.replace(MADE_UP, slugOrId));
        }
      }
      const page = await fetch(`${review!.baseUrl}/u/${person.slug}`);
      expect(page.status, `/u/${person.slug}`).toBe(404);
    }
    for (const [method, path] of [
      ['GET', `/api/v1/meetups/${meetup.id}.json`],
      ['POST', `/api/v1/meetups/${meetup.id}/join.json`],
    ] as const) {
      const res = await call(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const requests = await testDb()
      .selectFrom('buddy_requests')
      .select('id')
      .where('sender_id', '=', member.id)
      .execute();
    expect(requests).toEqual([]);
  });

  it('reaches no real member itself', async () => {
    const member = await realMember();
    const asked = await reviewer.request('POST', `/api/v1/users/${member.slug}/buddy_request.json`, {
      json: { message: 'Hello from the review account' },
      headers: { origin: review!.baseUrl },
    });
    expect(asked.status).toBe(404);
    expect(asked.json.error.code).toBe('not_found');
    const profile = await reviewer.request('GET', `/api/v1/users/${member.slug}/profile.json`);
    expect(profile.status).toBe(404);
    const rows = await testDb()
      .selectFrom('buddy_requests')
      .select('id')
      .where('recipient_id', '=', member.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('is made afresh on the next start, and removed, every row of it, by a start with the switch off', async () => {
    const before = await sandboxIds();
    await review!.stop();
    review = await startWith('1', 'server-review-2.log');
    const again = logEvents(review, 'review_account')[0] as unknown as Credentials;
    expect(again.password).toBe(credentials.password);
    const after = await sandboxIds();
    expect(after).toHaveLength(5);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    await review.stop();

    review = await startWith('0', 'server-review-off.log');
    expect(logEvents(review, 'review_account')).toEqual([]);
    expect(logEvents(review, 'review_account_removed')).toHaveLength(1);
    expect(await sandboxIds()).toEqual([]);
    const ids = [...before, ...after];
    const owned = [
      ['users', 'id'],
      ['chat_members', 'user_id'],
      ['connections', 'user_a'],
      ['buddy_requests', 'sender_id'],
      ['plans', 'proposer_id'],
      ['meetups', 'host_id'],
      ['meetup_attendees', 'user_id'],
      ['sessions', 'user_id'],
    ] as const;
    for (const [table, column] of owned) {
      const left = await testDb().selectFrom(table).select(column).where(column, 'in', ids).execute();
      expect(left, table).toEqual([]);
    }
    const orphans = await testDb()
      .selectFrom('users')
      .select('id')
      .where('email', 'like', '%@review.invalid')
      .execute();
    expect(orphans).toEqual([]);
  });
});

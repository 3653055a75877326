// Two worlds by age (issue 41 §1): people under 18 and adults never see or reach each other,
// whatever the route, and to each of them a person of the other world answers exactly as no
// one does. Each reach is performed from either side and must fail; then the crossing of 18
// (by a birthday edit, refused; by time, at once) and a property over generated pairs of ages,
// on the real server and the real PostgreSQL.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { canMeetByAge, mayMeetByAgeSql, yearsBefore } from '@/lib/ages/worlds';
import { register } from '@/lib/contract/accounts';
import { listBuddyRequests, sendBuddyRequest } from '@/lib/contract/buddies';
import { sendMessage } from '@/lib/contract/chats';
import { discover, getOverlap } from '@/lib/contract/discover';
import { getInbox } from '@/lib/contract/inbox';
import { getPublicProfile, updateMe } from '@/lib/contract/profiles';
import { blockUser, reportUser, unblockUser } from '@/lib/contract/safety';
import { EARTH_RADIUS_KM } from '@/lib/discover/cells';
import { api, baseUrl, freshIp, testDb, uniqueEmail } from './client';
import { call, refused, send } from './contract-client';
import { WebClient } from './web-client';

const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;
const today = () => new Date().toISOString().slice(0, 10);
/** A birthday `years` years and `days` days before today (UTC), as the server counts. */
function born(years: number, days = 0): string {
  const date = new Date(`${yearsBefore(today(), years)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

interface Member {
  id: string;
  slug: string;
  token: string;
  email: string;
  password: string;
  birthday: string | null;
}

/** A complete profile into hiking at `spot`, `km` north of it. */
async function member(name: string, birthday: string | null, spot: { latitude: number; longitude: number }, km = 0) {
  const email = uniqueEmail('ages');
  const registered = await call(register, {
    body: {
      email,
      displayName: name,
      aboutMe: `I am ${name}`,
      location: 'Open sea',
      coords: { latitude: spot.latitude + km / KM_PER_DEGREE, longitude: spot.longitude },
      gender: 'female',
      ...(birthday ? { birthday } : {}),
      activities: ['hiking'],
      availability_text: 'weekends',
    },
  });
  const person: Member = {
    id: registered.user.id,
    slug: registered.user.slug,
    token: registered.auth.token,
    email,
    password: registered.auth.generated_password!,
    birthday,
  };
  await testDb()
    .updateTable('users')
    .set({ photo_url: `https://example.com/${person.slug}.jpg` })
    .where('id', '=', person.id)
    .execute();
  // PATCH recomputes completeness now that the photo is there.
  await call(updateMe, { token: person.token, body: { aboutMe: `I am ${name}!` } });
  return person;
}

async function foundIn(viewer: Member, other: Member): Promise<boolean> {
  const answer = await call(discover, { token: viewer.token, query: { radius_km: 25, available: 0, limit: 50 } });
  return answer.results.some((r) => r.user.id === other.id);
}

/** The 404 a path naming nobody gets: the same code, status, message shape and hint as a person who does not exist. */
async function expectNoOne(
  answer: Promise<{ code: string; status: number; message: string; hint?: string }>,
  slug: string,
) {
  const refusal = await answer;
  expect(refusal.status).toBe(404);
  expect(refusal.code).toBe('not_found');
  expect(refusal.message).toBe(`No user with slug or id "${slug}"`);
  expect(refusal.hint).toBe('Check the slug; it is the last part of the profile_url.');
}

describe('two worlds: under 18 and adults never reach each other', () => {
  const spot = { latitude: -25, longitude: -140 };
  let adult: Member;
  let teen: Member;
  let teenPeer: Member;
  let olderTeen: Member;

  beforeAll(async () => {
    [adult, teen, teenPeer, olderTeen] = await Promise.all([
      member('Ada Adult', born(45), spot, 0.3),
      member('Tia Teen', born(14, 100), spot, 1.2),
      member('Pia Peer', born(15, 200), spot, 2.1),
      // Three years older than Tia: beyond the default gap of two.
      member('Ola Older', born(17, 200), spot, 3.4),
    ]);
  });

  it('keeps each out of the other side of Discover, and teenagers within two years of each other', async () => {
    expect(await foundIn(adult, teen)).toBe(false);
    expect(await foundIn(teen, adult)).toBe(false);
    expect(await foundIn(teen, teenPeer)).toBe(true);
    expect(await foundIn(teenPeer, teen)).toBe(true);
    expect(await foundIn(teen, olderTeen)).toBe(false);
    expect(await foundIn(olderTeen, teen)).toBe(false);
    // Ola is 17 and Pia 15, born less than two years apart.
    expect(await foundIn(olderTeen, teenPeer)).toBe(true);
    // Nor do they count in what an empty page says: the adult's search for hiking at any time sees nobody here but teenagers.
    const answer = await call(discover, { token: adult.token, query: { radius_km: 25, available: 0 } });
    expect(answer.results.map((r) => r.user.id)).not.toContain(teen.id);
    if (answer.results.length === 0) expect(answer.empty_reason).toMatch(/^Nobody within 25 km/);
  });

  it('answers every path that names the other world as it answers no one, from either side', async () => {
    const nobody = `nobody-${Date.now()}`;
    await expectNoOne(refused(getPublicProfile, { params: { slug: nobody }, token: adult.token }, 'not_found'), nobody);
    for (const [viewer, other] of [
      [adult, teen],
      [teen, adult],
      [teen, olderTeen],
    ] as const) {
      const params = { slug: other.slug };
      await expectNoOne(refused(getPublicProfile, { params, token: viewer.token }, 'not_found'), other.slug);
      await expectNoOne(refused(getOverlap, { params, token: viewer.token }, 'not_found'), other.slug);
      await expectNoOne(refused(sendBuddyRequest, { params, token: viewer.token, body: {} }, 'not_found'), other.slug);
      await expectNoOne(refused(blockUser, { params, token: viewer.token }, 'not_found'), other.slug);
      await expectNoOne(
        refused(reportUser, { params, token: viewer.token, body: { reason: 'other', text: 'test' } }, 'not_found'),
        other.slug,
      );
      // By id as well as by slug.
      await expectNoOne(
        refused(getPublicProfile, { params: { slug: other.id }, token: viewer.token }, 'not_found'),
        other.id,
      );
    }
    // Nothing was stored by the refused reaches.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from buddy_requests
      where sender_id = any(${[adult.id, teen.id]}::uuid[]) and recipient_id = any(${[adult.id, teen.id, olderTeen.id]}::uuid[])`.execute(
      testDb(),
    );
    expect(rows[0]!.n).toBe(0);
    const blocks = await testDb()
      .selectFrom('blocks')
      .select('blocker_id')
      .where('blocker_id', 'in', [adult.id, teen.id])
      .execute();
    expect(blocks).toEqual([]);
    // Teenagers of one world see each other as members do.
    const peer = await call(getPublicProfile, { params: { slug: teenPeer.slug }, token: teen.token });
    expect(peer.profile.view).toBe('member');
  });

  it('answers the same through MCP tools (the official SDK client): no profile, no request, not in discover', async () => {
    const client = new Client({ name: 'age-worlds-test', version: '1.0.0' });
    const headers = { 'x-forwarded-for': freshIp(), authorization: `Bearer ${adult.token}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } }),
    );
    try {
      const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
        (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
      for (const [tool, args] of [
        ['get_public_profile', { slug: teen.slug }],
        ['send_buddy_request', { slug: teen.slug }],
        ['get_shared_free_time', { slug: teen.slug }],
      ] as const) {
        const result = await client.callTool({ name: tool, arguments: args });
        expect(result.isError, `${tool}: ${text(result)}`).toBe(true);
        expect(text(result)).toContain(`No user with slug or id "${teen.slug}"`);
      }
      const found = await client.callTool({ name: 'discover', arguments: { radius_km: 25, available: 0, limit: 50 } });
      expect(found.isError ?? false).toBe(false);
      expect(text(found)).not.toContain(teen.id);
      expect(text(found)).not.toContain('Tia');
    } finally {
      await client.close();
    }
  });

  it('shows a teenager to nobody signed out: the API, the page, its link preview', async () => {
    await expectNoOne(refused(getPublicProfile, { params: { slug: teen.slug } }, 'not_found'), teen.slug);
    const page = await fetch(`${baseUrl()}/u/${teen.slug}`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).not.toContain('Tia');
    expect(html).toMatch(/<meta name="robots" content="noindex/);
    // An adult's page stays public.
    const adultPage = await fetch(`${baseUrl()}/u/${adult.slug}`);
    expect(adultPage.status).toBe(200);
    expect(await adultPage.text()).toContain('Ada');
  });

  it("shows a teenager's page to a signed-in teenager of their world, never indexed", async () => {
    const web = new WebClient();
    expect((await web.signInWithPassword(teenPeer.email, teenPeer.password)).status).toBe(302);
    const page = await web.request('GET', `/u/${teen.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Tia');
    expect(page.text).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(page.text).not.toContain('og:title');
    const adultWeb = new WebClient();
    expect((await adultWeb.signInWithPassword(adult.email, adult.password)).status).toBe(302);
    const refused = await adultWeb.request('GET', `/u/${teen.slug}`);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('Tia');
  });
});

describe('crossing 18', () => {
  const spot = { latitude: -25, longitude: -143 };

  it.each([
    ['an adult to under 18', born(30), born(16)],
    ['under 18 to an adult', born(16), born(30)],
    ['under 18 to no birthday', born(16), null],
  ])('refuses a birthday edit from %s, and stores nothing', async (_case, from, to) => {
    const person = await member('Cy Crosser', from, spot);
    const refusal = await refused(updateMe, { token: person.token, body: { birthday: to } }, 'validation_failed');
    expect(refusal.fields?.birthday).toMatch(/contact the operator/);
    expect(refusal.hint).toMatch(/operator/);
    const row = await testDb()
      .selectFrom('users')
      .select('birthday')
      .where('id', '=', person.id)
      .executeTakeFirstOrThrow();
    expect(row.birthday).toBe(from);
    // A change within one world goes through.
    const sameWorld = from === born(30) ? born(31) : born(15);
    await call(updateMe, { token: person.token, body: { birthday: sameWorld } });
  });

  it('lets a first birthday under 18 through only while the person has been in touch with no one', async () => {
    const fresh = await member('Fay First', null, spot, 5);
    await call(updateMe, { token: fresh.token, body: { birthday: born(15) } });
    const adult = await member('Abe Adult', born(40), spot, 6);
    const reaching = await member('Rex Reacher', null, spot, 7);
    await call(sendBuddyRequest, { params: { slug: adult.slug }, token: reaching.token, body: {} });
    const refusal = await refused(
      updateMe,
      { token: reaching.token, body: { birthday: born(15) } },
      'validation_failed',
    );
    expect(refusal.fields?.birthday).toMatch(/under 18 and adult/);
  });

  it('moves a person on their 18th birthday: buddies stay, a pending request goes, nothing new crosses', async () => {
    const [turning, buddy, asked, newcomer] = await Promise.all([
      member('Tom Turning', born(17, 300), spot, 10),
      member('Bea Buddy', born(16, 100), spot, 11),
      member('Ann Asked', born(16, 50), spot, 12),
      member('Ned Newcomer', born(16, 10), spot, 13),
    ]);
    const request = await call(sendBuddyRequest, { params: { slug: buddy.slug }, token: turning.token, body: {} });
    const accepted = await api('POST', `/api/v1/buddy_requests/${request.request.id}/accept.json`, {
      token: buddy.token,
      body: {},
    });
    expect(accepted.status).toBe(200);
    const chatId = accepted.body.chat.chatId as string;
    const pending = await call(sendBuddyRequest, { params: { slug: asked.slug }, token: turning.token, body: {} });
    // Time passes: today is Tom's 18th birthday.
    await testDb()
      .updateTable('users')
      .set({ birthday: born(18) })
      .where('id', '=', turning.id)
      .execute();

    // The pending request is no one's, on either side.
    const inbox = await call(getInbox, { token: asked.token });
    expect(inbox.pending_requests.map((r) => r.id)).not.toContain(pending.request.id);
    const lists = await call(listBuddyRequests, { token: asked.token });
    expect(lists.received.map((r) => r.id)).not.toContain(pending.request.id);
    const acceptLate = await api('POST', `/api/v1/buddy_requests/${pending.request.id}/accept.json`, {
      token: asked.token,
      body: {},
    });
    expect([acceptLate.status, acceptLate.body.error.code]).toEqual([404, 'not_found']);
    const stored = await testDb()
      .selectFrom('buddy_requests')
      .select('state')
      .where('id', '=', pending.request.id)
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe('pending');
    expect(
      await testDb()
        .selectFrom('connections')
        .select('id')
        .where('user_a', 'in', [turning.id, asked.id])
        .where('user_b', 'in', [turning.id, asked.id])
        .execute(),
    ).toEqual([]);

    // The buddy made before stays: the chat goes on and each sees the other's profile.
    await call(sendMessage, { params: { chatId }, token: buddy.token, body: { text: 'Happy birthday!' } });
    await call(sendMessage, { params: { chatId }, token: turning.token, body: { text: 'Thanks!' } });
    expect((await call(getPublicProfile, { params: { slug: buddy.slug }, token: turning.token })).profile.id).toBe(
      buddy.id,
    );
    expect((await call(getPublicProfile, { params: { slug: turning.slug }, token: buddy.token })).profile.id).toBe(
      turning.id,
    );

    // Nothing new crosses: not Discover, not a request, either way.
    expect(await foundIn(turning, newcomer)).toBe(false);
    expect(await foundIn(newcomer, turning)).toBe(false);
    await expectNoOne(
      refused(sendBuddyRequest, { params: { slug: newcomer.slug }, token: turning.token, body: {} }, 'not_found'),
      newcomer.slug,
    );
    // An unblock still reaches someone the person blocked before (their own record), whatever the world.
    await call(blockUser, { params: { slug: buddy.slug }, token: turning.token });
    await testDb()
      .deleteFrom('connections')
      .where('user_a', 'in', [turning.id, buddy.id])
      .where('user_b', 'in', [turning.id, buddy.id])
      .execute();
    await call(unblockUser, { params: { slug: buddy.slug }, token: turning.token });
  });
});

describe('the rule over generated pairs of ages', () => {
  it('is the same rule in SQL as in TypeScript (2,000 pairs on PostgreSQL)', async () => {
    const birthday = fc
      .integer({ min: 13 * 366, max: 40 * 365 })
      .map((days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10));
    const pairs = fc.sample(fc.tuple(birthday, fc.option(birthday, { freq: 10 })), { seed: 41, numRuns: 2000 });
    const values = sql.join(pairs.map(([a, b]) => sql`(${a}::date, ${b}::date)`));
    const { rows } = await sql<{ a: string; b: string | null; meet: boolean }>`
      select p.a, p.b, ${mayMeetByAgeSql(sql`p.a`, sql`p.b`)} as meet from (values ${values}) as p(a, b)`.execute(
      testDb(),
    );
    const disagreements = rows.filter((row) => row.meet !== canMeetByAge(row.a, row.b));
    expect(disagreements).toEqual([]);
    expect(rows.filter((row) => row.meet).length).toBeGreaterThan(100);
  });

  it('decides Discover and profiles as the rule says, for generated pairs of ages (from either side)', async () => {
    const age = fc.integer({ min: 13 * 365 + 5, max: 24 * 365 });
    const cases = fc.sample(fc.tuple(age, age), { seed: 4101, numRuns: 6 });
    await Promise.all(
      cases.map(async ([daysA, daysB], i) => {
        const spot = { latitude: -21 - i * 0.6, longitude: -147 };
        const [a, b] = [born(0, daysA), born(0, daysB)];
        const [personA, personB] = await Promise.all([
          member(`Gen A${i}`, a, spot, 0.5),
          member(`Gen B${i}`, b, spot, 1.5),
        ]);
        const expected = canMeetByAge(a, b);
        expect(await foundIn(personA, personB)).toBe(expected);
        expect(await foundIn(personB, personA)).toBe(expected);
        const profile = await send(getPublicProfile, { params: { slug: personB.slug }, token: personA.token });
        expect(profile.status).toBe(expected ? 200 : 404);
      }),
    );
  });
});

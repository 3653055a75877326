// Forgiving input (issue 14 §2): the shapes agents commonly send instead of the
// documented ones are accepted, stored as if sent right, and reported one by one in
// warnings.normalized; what stays ambiguous is refused with the exact fix in error.fields.
import { describe, expect, it } from 'vitest';
import { register, registerResponseSchema } from '@/lib/contract/accounts';
import { discover } from '@/lib/contract/discover';
import { listEvents } from '@/lib/contract/events';
import { uploadPhoto } from '@/lib/contract/photos';
import { parseAvailability, updateMe } from '@/lib/contract/profiles';
import { sendBuddyRequest } from '@/lib/contract/buddies';
import { makeImage } from '@/e2e/support/photos/test-images';
import { api, freshIp, registerUser, testDb, uniqueEmail } from './client';
import { call, type CallInput, callWithHeaders, pathOf, refused, refusedRaw, send } from './contract-client';

/**
 * Registers with fields in the shapes agents get wrong, which the contract's types forbid
 * by design (so the request is raw), and reads the answer through the contract.
 */
async function registerLoosely(fields: Record<string, unknown>) {
  const user = await registerUser(fields);
  return { ...registerResponseSchema.parse(user), id: user.id, token: user.token, slug: user.slug };
}

const storedUser = (id: string) =>
  testDb().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('registration and PATCH /me.json accept common mistakes and say what they understood', () => {
  type Row = Awaited<ReturnType<typeof storedUser>>;
  it.each<[string, Record<string, unknown>, (row: Row) => unknown, unknown, string]>([
    [
      'availability as a string',
      { availability: 'weekends' },
      (r) => r.availability_text,
      'weekends',
      'availability: the text "weekends" was read as availability_text',
    ],
    [
      'activities as one comma-separated string',
      { activities: 'hiking, board games' },
      (r) => r.activities,
      ['hiking', 'board_games'],
      'activities: the text "hiking, board games" was read as the list ["hiking","board games"]',
    ],
    [
      'coords as text',
      { coords: '38.7,-9.1' },
      (r) => [r.latitude, r.longitude],
      [38.7, -9.1],
      'coords: the text "38.7,-9.1" was read as latitude 38.7, longitude -9.1',
    ],
    ['gender "woman"', { gender: 'woman' }, (r) => r.gender, 'female', 'gender: "woman" was read as female'],
    ['gender "man"', { gender: 'Man' }, (r) => r.gender, 'male', 'gender: "Man" was read as male'],
    [
      'gender "nonbinary"',
      { gender: 'nonbinary' },
      (r) => r.gender,
      'non_binary',
      'gender: "nonbinary" was read as non_binary',
    ],
    [
      'gender "non-binary"',
      { gender: 'non-binary' },
      (r) => r.gender,
      'non_binary',
      'gender: "non-binary" was read as non_binary',
    ],
    [
      'gender "prefer not to say"',
      { gender: 'prefer not to say' },
      (r) => r.gender,
      'prefer_not_to_say',
      'gender: "prefer not to say" was read as prefer_not_to_say',
    ],
    [
      'birthday "March 3 1990"',
      { birthday: 'March 3 1990' },
      (r) => r.birthday,
      '1990-03-03',
      'birthday: "March 3 1990" was read as 1990-03-03',
    ],
    [
      'birthday "3 March 1990"',
      { birthday: '3 March 1990' },
      (r) => r.birthday,
      '1990-03-03',
      'birthday: "3 March 1990" was read as 1990-03-03',
    ],
    [
      'birthday "1990/03/03"',
      { birthday: '1990/03/03' },
      (r) => r.birthday,
      '1990-03-03',
      'birthday: "1990/03/03" was read as 1990-03-03',
    ],
  ])('%s', async (_name, input, stored, expected, note) => {
    const registered = await registerLoosely(input);
    expect(registered.warnings.normalized).toEqual([note]);
    expect(stored(await storedUser(registered.id))).toEqual(expected);

    const other = await registerUser({});
    // Raw: these shapes are what the contract's types forbid; the answer is read through its schema.
    const patched = await api('PATCH', pathOf(updateMe), { token: other.token, body: input });
    expect(patched.status).toBe(200);
    expect(updateMe.response.parse(patched.body).warnings.normalized).toEqual([note]);
    expect(stored(await storedUser(other.id))).toEqual(expected);
  });

  it('reports every normalisation of one request, in field order, before the availability rounding', async () => {
    const registered = await registerLoosely({ gender: 'woman', activities: 'chess', availability: 'sat 9:30am-noon' });
    expect(registered.warnings.normalized).toEqual([
      'gender: "woman" was read as female',
      'activities: the text "chess" was read as the list ["chess"]',
      'availability: the text "sat 9:30am-noon" was read as availability_text',
      'availability_text: 9:30am falls in the hour 9am–10am, so free time is counted from 10am (it is kept in whole hours, and an hour only partly free is left out)',
    ]);
    expect(registered.warnings.schedule_summary).toBe('Saturday 10am–noon');
  });

  it('says nothing in normalized when everything came in the documented form', async () => {
    const body: NonNullable<CallInput<typeof register>['body']> = {
      email: uniqueEmail(),
      displayName: 'Documented',
      gender: 'female',
      activities: ['chess'],
    };
    const registered = await call(register, {
      body: { ...body, birthday: '1990-03-03', coords: { latitude: 1, longitude: 2 } },
    });
    expect(registered.warnings.normalized).toBeUndefined();
  });
});

describe('what stays ambiguous or wrong is refused with the fix, and nothing is stored', () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    [
      'an ambiguous birthday',
      { birthday: '03/04/1990' },
      'birthday',
      /ambiguous \(3 April or March 4\?\): use YYYY-MM-DD, e\.g\. 1990-04-03/,
    ],
    ['a birthday that is not a date', { birthday: 'last spring' }, 'birthday', /use YYYY-MM-DD/],
    ['an unknown gender word', { gender: 'robot' }, 'gender', /use one of male, female, non_binary, prefer_not_to_say/],
    ['coords as a place name', { coords: 'Lisbon' }, 'coords', /use \{"latitude": 38\.72, "longitude": -9\.14\}/],
    ['coords out of range as text', { coords: '95,10' }, 'coords.latitude', /^Latitude must be 90 or less$/],
    [
      'availability as a number',
      { availability: 42 },
      'availability',
      /use availability_text: "weekday evenings after 6"/,
    ],
    [
      'activities with a bad item',
      { activities: ['ok', 'x'.repeat(101)] },
      'activities.1',
      /^Activities \(item 2\) can be at most 100 characters$/,
    ],
    [
      'too many activities in one string',
      { activities: Array.from({ length: 21 }, (_, i) => `a${i}`).join(',') },
      'activities',
      /20/,
    ],
  ])('%s', async (_name, input, field, message) => {
    const email = uniqueEmail('refused');
    const res = refusedRaw(
      await api('POST', pathOf(register), { body: { email, displayName: 'Refused', ...input } }),
      'validation_failed',
    );
    expect(res.status).toBe(400);
    expect(res.fields?.[field]).toMatch(message);
    expect(
      await testDb().selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('the photo type has one meaning under both names', () => {
  const jpeg = async () => (await makeImage('jpeg')).toString('base64');

  it('registration takes mimeType as photoMimeType', async () => {
    const registered = await registerLoosely({ photo: await jpeg(), mimeType: 'image/jpeg' });
    expect(registered.warnings.normalized).toEqual(['mimeType: read as photoMimeType']);
    expect((await storedUser(registered.id)).photo_url).not.toBeNull();
  });

  it('the upload takes photoMimeType as mimeType, and refuses a PNG declared under either name as JPEG', async () => {
    const user = await registerUser({});
    const ok = await call(uploadPhoto, {
      token: user.token,
      body: { photo: await jpeg(), photoMimeType: 'image/jpeg' },
    });
    expect(ok.warnings).toEqual({ normalized: ['photoMimeType: read as mimeType'] });
    const png = (await makeImage('png')).toString('base64');
    await refused(
      uploadPhoto,
      { token: user.token, body: { photo: png, photoMimeType: 'image/jpeg' } },
      'photo_type_mismatch',
    );
  });

  it('both names with different types is refused by name', async () => {
    const user = await registerUser({});
    const both = { photo: await jpeg(), mimeType: 'image/jpeg', photoMimeType: 'image/png' } as const;
    const res = await refused(uploadPhoto, { token: user.token, body: both }, 'validation_failed');
    expect(res.status).toBe(400);
    expect(res.fields).toEqual({ photoMimeType: 'same as mimeType: send only mimeType' });
    const documented = await call(uploadPhoto, {
      token: user.token,
      body: { photo: await jpeg(), mimeType: 'image/jpeg' },
    });
    expect(documented.warnings).toEqual({});
  });
});

describe('unmatched activities always come with suggestions', () => {
  it('has activities_suggestions, possibly empty, beside activities_unmatched', async () => {
    const signup = (activities: string[]) =>
      call(register, { body: { email: uniqueEmail(), displayName: 'Test Person', activities } });
    const registered = await signup(['hikking', 'qwzxv']);
    expect(registered.warnings.activities_unmatched).toEqual(['hikking', 'qwzxv']);
    expect(registered.warnings.activities_suggestions).toMatchObject({ hikking: expect.arrayContaining(['hiking']) });
    expect(registered.warnings.activities_suggestions?.qwzxv ?? []).toEqual([]);
    const none = await signup(['qwzxv']);
    expect(none.warnings.activities_suggestions).toEqual({});
  });
});

// ---------------------------------------------------------------------------
// §3 and §4: plain-English activities and free time wherever they are taken.

/** A complete profile at its own spot in the open sea (nobody else's test is near). */
async function completeAt(spot: { latitude: number; longitude: number }, activities: string[], availability: string) {
  const user = await registerUser({
    aboutMe: 'Here for tests',
    location: 'Open sea',
    coords: spot,
    gender: 'female',
    birthday: '1990-06-15',
    activities,
    availability_text: availability,
  });
  await testDb()
    .updateTable('users')
    .set({ photo_url: `https://example.com/${user.slug}.jpg` })
    .where('id', '=', user.id)
    .execute();
  const patch = await call(updateMe, { token: user.token, body: { aboutMe: 'Here for tests!' } });
  expect(patch.onboarding.complete).toBe(true);
  return user;
}

const spot = (n: number) => ({ latitude: -40 - n / 10, longitude: -120 - (Date.now() % 1000) / 1000 });

describe('plain-English activities on every endpoint that takes them', () => {
  it('Discover, the events feed and a buddy request read "bouldering" as rock_climbing', async () => {
    const caller = await completeAt(spot(1), ['rock_climbing'], 'weekends');
    const discovered = await call(discover, { query: { activities: 'bouldering,board games' }, token: caller.token });
    expect(discovered.search.activities).toEqual(['rock_climbing', 'board_games']);

    const events = await call(listEvents, { query: { activities: 'bouldering' } });
    expect(events.events.every((e) => e.activities.includes('rock_climbing'))).toBe(true);

    const other = await registerUser({});
    const body = { activityIds: ['bouldering', 'board games'] };
    const asked = await call(sendBuddyRequest, { params: { slug: other.slug }, token: caller.token, body });
    expect(asked.request.activityIds).toEqual(['rock_climbing', 'board_games']);
    const stored = await testDb()
      .selectFrom('buddy_requests')
      .select('activity_ids')
      .where('id', '=', asked.request.id)
      .executeTakeFirstOrThrow();
    expect(stored.activity_ids).toEqual(['rock_climbing', 'board_games']);
  });

  type Ask = (token: string, slug: string) => ReturnType<typeof refused>;
  it.each<[string, Ask, string]>([
    [
      'Discover',
      (token) => refused(discover, { query: { activities: 'hikking' }, token }, 'validation_failed'),
      'activities',
    ],
    [
      'the events feed',
      (token) => refused(listEvents, { query: { activities: 'hikking' }, token }, 'validation_failed'),
      'activities',
    ],
    [
      'a buddy request',
      (token, slug) =>
        refused(sendBuddyRequest, { params: { slug }, token, body: { activityIds: ['hikking'] } }, 'validation_failed'),
      'activityIds',
    ],
  ])('%s refuses a word that matches nothing, with the closest ids', async (_name, ask, field) => {
    const caller = await completeAt(spot(2), ['hiking'], 'weekends');
    const other = await registerUser({});
    const res = await ask(caller.token, other.slug);
    expect(res.status).toBe(400);
    expect(res.fields?.[field]).toMatch(
      /^unknown activity: "hikking" \(did you mean hiking, .*\?\); plain English works/,
    );
  });
});

describe('POST /api/v1/availability/parse.json', () => {
  it('answers what would be stored, without a token or saving anything', async () => {
    const res = await callWithHeaders(parseAvailability, {
      body: { text: 'weeknights except fridays, sat 9:30am-noon and when the moon is full' },
    });
    expect(res.data.summary).toBe('Monday–Thursday evenings; Saturday 10am–noon');
    expect(res.data.unparsed).toEqual(['when the moon is full']);
    expect(res.data.normalized).toEqual([
      'availability_text: 9:30am falls in the hour 9am–10am, so free time is counted from 10am (it is kept in whole hours, and an hour only partly free is left out)',
    ]);
    expect(res.data.grid).toHaveLength(7);
    expect(res.data.grid[4]?.some(Boolean)).toBe(false); // Friday
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"availability_parse";q=60;w=60$/);
  });

  it.each([
    [{}, 'text'],
    [{ text: 'x'.repeat(501) }, 'text'],
    [{ text: 'weekends', extra: 1 }, 'extra'],
  ])('refuses %j naming %s', async (body, field) => {
    // Raw: missing and unknown fields are bodies the contract's types forbid.
    const res = refusedRaw(await api('POST', pathOf(parseAvailability), { body }), 'validation_failed');
    expect(res.status).toBe(400);
    expect(Object.keys(res.fields ?? {})).toContain(field);
  });

  it('is limited per client address', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1)
      statuses.push((await send(parseAvailability, { body: { text: 'weekends' }, ip })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    await refused(parseAvailability, { body: { text: 'weekends' }, ip }, 'rate_limited');
    await call(parseAvailability, { body: { text: 'weekends' }, ip: freshIp() });
  });
});

describe("Discover when= and the order of a card's activities", () => {
  it("finds people free at the times named instead of the caller's own, and lists the searched activities first", async () => {
    const at = spot(3);
    const caller = await completeAt(at, ['hiking', 'chess'], 'weekends');
    const evenings = await completeAt(
      { latitude: at.latitude + 0.01, longitude: at.longitude },
      ['tennis', 'chess', 'hiking'],
      'weekday evenings',
    );
    const own = await call(discover, { query: { activities: 'hiking', radius_km: 5 }, token: caller.token });
    expect(own.results.map((r) => r.user.id)).not.toContain(evenings.id);

    const when = await call(discover, {
      query: { activities: 'hiking', radius_km: 5, when: 'weekday evenings' },
      token: caller.token,
    });
    expect(when.search.when).toBe('Weekday evenings (5pm–midnight)');
    const found = when.results.find((r) => r.user.id === evenings.id);
    expect(found?.overlap_hours).toBeGreaterThan(0);
    expect(found?.user.activities).toEqual(['hiking', 'chess', 'tennis']);
    expect(when.next_url).toBeNull();
  });

  it.each([
    ['when the moon is full', /did not understand "when the moon is full"/],
    ['weekends, blue moons', /did not understand "blue moons"/],
  ])('refuses when=%s instead of widening the search', async (when, message) => {
    const caller = await completeAt(spot(4), ['hiking'], 'weekends');
    const res = await refused(discover, { query: { when }, token: caller.token }, 'validation_failed');
    expect(res.status).toBe(400);
    expect(res.fields?.when).toMatch(message);
  });
});

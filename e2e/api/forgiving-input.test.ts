// Forgiving input (issue 14 §2): the shapes agents commonly send instead of the
// documented ones are accepted, stored as if sent right, and reported one by one in
// warnings.normalized; what stays ambiguous is refused with the exact fix in error.fields.
import { describe, expect, it } from 'vitest';
import { makeImage } from '@/lib/photos/test-images';
import { api, freshIp, registerUser, testDb, uniqueEmail } from './client';

const storedUser = (id: string) => testDb().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('registration and PATCH /me.json accept common mistakes and say what they understood', () => {
  type Row = Awaited<ReturnType<typeof storedUser>>;
  it.each<[string, Record<string, unknown>, (row: Row) => unknown, unknown, string]>([
    ['availability as a string', { availability: 'weekends' }, (r) => r.availability_text, 'weekends', 'availability: the text "weekends" was read as availability_text'],
    [
      'activities as one comma-separated string',
      { activities: 'hiking, board games' },
      (r) => r.activities,
      ['hiking', 'board_games'],
      'activities: the text "hiking, board games" was read as the list ["hiking","board games"]',
    ],
    ['coords as text', { coords: '38.7,-9.1' }, (r) => [r.latitude, r.longitude], [38.7, -9.1], 'coords: the text "38.7,-9.1" was read as latitude 38.7, longitude -9.1'],
    ['gender "woman"', { gender: 'woman' }, (r) => r.gender, 'female', 'gender: "woman" was read as female'],
    ['gender "man"', { gender: 'Man' }, (r) => r.gender, 'male', 'gender: "Man" was read as male'],
    ['gender "nonbinary"', { gender: 'nonbinary' }, (r) => r.gender, 'non_binary', 'gender: "nonbinary" was read as non_binary'],
    ['gender "non-binary"', { gender: 'non-binary' }, (r) => r.gender, 'non_binary', 'gender: "non-binary" was read as non_binary'],
    ['gender "prefer not to say"', { gender: 'prefer not to say' }, (r) => r.gender, 'prefer_not_to_say', 'gender: "prefer not to say" was read as prefer_not_to_say'],
    ['birthday "March 3 1990"', { birthday: 'March 3 1990' }, (r) => r.birthday, '1990-03-03', 'birthday: "March 3 1990" was read as 1990-03-03'],
    ['birthday "3 March 1990"', { birthday: '3 March 1990' }, (r) => r.birthday, '1990-03-03', 'birthday: "3 March 1990" was read as 1990-03-03'],
    ['birthday "1990/03/03"', { birthday: '1990/03/03' }, (r) => r.birthday, '1990-03-03', 'birthday: "1990/03/03" was read as 1990-03-03'],
  ])('%s', async (_name, input, stored, expected, note) => {
    const registered = await registerUser(input);
    expect(registered.warnings.normalized).toEqual([note]);
    expect(stored(await storedUser(registered.id))).toEqual(expected);

    const other = await registerUser({});
    const patched = await api('PATCH', '/api/v1/me.json', { token: other.token, body: input });
    expect(patched.status).toBe(200);
    expect(patched.body.warnings.normalized).toEqual([note]);
    expect(stored(await storedUser(other.id))).toEqual(expected);
  });

  it('reports every normalisation of one request, in field order, before the availability rounding', async () => {
    const registered = await registerUser({ gender: 'woman', activities: 'chess', availability: 'sat 9:30am-noon' });
    expect(registered.warnings.normalized).toEqual([
      'gender: "woman" was read as female',
      'activities: the text "chess" was read as the list ["chess"]',
      'availability: the text "sat 9:30am-noon" was read as availability_text',
      'availability_text: 9:30am falls in the hour 9am–10am, which is counted whole (free time is kept in one-hour slots)',
    ]);
    expect(registered.warnings.schedule_summary).toBe('Saturday 9am–noon');
  });

  it('says nothing in normalized when everything came in the documented form', async () => {
    const registered = await registerUser({ gender: 'female', activities: ['chess'], birthday: '1990-03-03', coords: { latitude: 1, longitude: 2 } });
    expect(registered.warnings.normalized).toBeUndefined();
  });
});

describe('what stays ambiguous or wrong is refused with the fix, and nothing is stored', () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['an ambiguous birthday', { birthday: '03/04/1990' }, 'birthday', /ambiguous \(3 April or March 4\?\): use YYYY-MM-DD, e\.g\. 1990-04-03/],
    ['a birthday that is not a date', { birthday: 'last spring' }, 'birthday', /use YYYY-MM-DD/],
    ['an unknown gender word', { gender: 'robot' }, 'gender', /use one of male, female, non_binary, prefer_not_to_say/],
    ['coords as a place name', { coords: 'Lisbon' }, 'coords', /use \{"latitude": 38\.72, "longitude": -9\.14\}/],
    ['coords out of range as text', { coords: '95,10' }, 'coords.latitude', /^Latitude must be 90 or less$/],
    ['availability as a number', { availability: 42 }, 'availability', /use availability_text: "weekday evenings after 6"/],
    ['activities with a bad item', { activities: ['ok', 'x'.repeat(101)] }, 'activities.1', /^Activities \(item 2\) can be at most 100 characters$/],
    ['too many activities in one string', { activities: Array.from({ length: 21 }, (_, i) => `a${i}`).join(',') }, 'activities', /20/],
  ])('%s', async (_name, input, field, message) => {
    const email = uniqueEmail('refused');
    const res = await api('POST', '/api/v1/register.json', { body: { email, displayName: 'Refused', ...input } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields[field]).toMatch(message);
    expect(await testDb().selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });
});

describe('the photo type has one meaning under both names', () => {
  const jpeg = async () => (await makeImage('jpeg')).toString('base64');

  it('registration takes mimeType as photoMimeType', async () => {
    const registered = await registerUser({ photo: await jpeg(), mimeType: 'image/jpeg' });
    expect(registered.warnings.normalized).toEqual(['mimeType: read as photoMimeType']);
    expect((await storedUser(registered.id)).photo_url).not.toBeNull();
  });

  it('the upload takes photoMimeType as mimeType, and refuses a PNG declared under either name as JPEG', async () => {
    const user = await registerUser({});
    const ok = await api('POST', '/api/v1/me/photo.json', { token: user.token, body: { photo: await jpeg(), photoMimeType: 'image/jpeg' } });
    expect(ok.status).toBe(200);
    expect(ok.body.warnings).toEqual({ normalized: ['photoMimeType: read as mimeType'] });
    const png = (await makeImage('png')).toString('base64');
    const mismatch = await api('POST', '/api/v1/me/photo.json', { token: user.token, body: { photo: png, photoMimeType: 'image/jpeg' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('photo_type_mismatch');
  });

  it('both names with different types is refused by name', async () => {
    const user = await registerUser({});
    const res = await api('POST', '/api/v1/me/photo.json', { token: user.token, body: { photo: await jpeg(), mimeType: 'image/jpeg', photoMimeType: 'image/png' } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ photoMimeType: 'same as mimeType: send only mimeType' });
    const documented = await api('POST', '/api/v1/me/photo.json', { token: user.token, body: { photo: await jpeg(), mimeType: 'image/jpeg' } });
    expect(documented.body.warnings).toEqual({});
  });
});

describe('unmatched activities always come with suggestions', () => {
  it('has activities_suggestions, possibly empty, beside activities_unmatched', async () => {
    const registered = await registerUser({ activities: ['hikking', 'qwzxv'] });
    expect(registered.warnings.activities_unmatched).toEqual(['hikking', 'qwzxv']);
    expect(registered.warnings.activities_suggestions).toMatchObject({ hikking: expect.arrayContaining(['hiking']) });
    expect(registered.warnings.activities_suggestions.qwzxv ?? []).toEqual([]);
    const none = await registerUser({ activities: ['qwzxv'] });
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
  await testDb().updateTable('users').set({ photo_url: `https://example.com/${user.slug}.jpg` }).where('id', '=', user.id).execute();
  const patch = await api('PATCH', '/api/v1/me.json', { token: user.token, body: { aboutMe: 'Here for tests!' } });
  expect(patch.body.onboarding.complete).toBe(true);
  return user;
}

const spot = (n: number) => ({ latitude: -40 - n / 10, longitude: -120 - (Date.now() % 1000) / 1000 });

describe('plain-English activities on every endpoint that takes them', () => {
  it('Discover, the events feed and a buddy request read "bouldering" as rock_climbing', async () => {
    const caller = await completeAt(spot(1), ['rock_climbing'], 'weekends');
    const discovered = await api('GET', '/api/v1/discover.json?activities=bouldering,board%20games', { token: caller.token });
    expect(discovered.status).toBe(200);
    expect(discovered.body.search.activities).toEqual(['rock_climbing', 'board_games']);

    const events = await api('GET', '/api/v1/events.json?activities=bouldering');
    expect(events.status).toBe(200);
    expect(events.body.events.every((e: { activities: string[] }) => e.activities.includes('rock_climbing'))).toBe(true);

    const other = await registerUser({});
    const asked = await api('POST', `/api/v1/users/${other.slug}/buddy_request.json`, { token: caller.token, body: { activityIds: ['bouldering', 'board games'] } });
    expect(asked.status).toBe(201);
    expect(asked.body.request.activityIds).toEqual(['rock_climbing', 'board_games']);
    const stored = await testDb().selectFrom('buddy_requests').select('activity_ids').where('id', '=', asked.body.request.id).executeTakeFirstOrThrow();
    expect(stored.activity_ids).toEqual(['rock_climbing', 'board_games']);
  });

  it.each([
    ['Discover', 'GET', '/api/v1/discover.json?activities=hikking', undefined, 'activities'],
    ['the events feed', 'GET', '/api/v1/events.json?activities=hikking', undefined, 'activities'],
    ['a buddy request', 'POST', '/api/v1/users/{slug}/buddy_request.json', { activityIds: ['hikking'] }, 'activityIds'],
  ] as const)('%s refuses a word that matches nothing, with the closest ids', async (_name, method, path, body, field) => {
    const caller = await completeAt(spot(2), ['hiking'], 'weekends');
    const other = await registerUser({});
    const res = await api(method, path.replace('{slug}', other.slug), { token: caller.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toMatch(/^unknown activity: "hikking" \(did you mean hiking, .*\?\); plain English works/);
  });
});

describe('POST /api/v1/availability/parse.json', () => {
  it('answers what would be stored, without a token or saving anything', async () => {
    const res = await api('POST', '/api/v1/availability/parse.json', { body: { text: 'weeknights except fridays, sat 9:30am-noon, when the moon is full' } });
    expect(res.status).toBe(200);
    expect(res.body.summary).toBe('Monday–Thursday evenings; Saturday 9am–noon');
    expect(res.body.unparsed).toEqual(['when the moon is full']);
    expect(res.body.normalized).toEqual(['availability_text: 9:30am falls in the hour 9am–10am, which is counted whole (free time is kept in one-hour slots)']);
    expect(res.body.grid).toHaveLength(7);
    expect(res.body.grid[4].some(Boolean)).toBe(false); // Friday
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"availability_parse";q=60;w=60$/);
  });

  it.each([
    [{}, 'text'],
    [{ text: 'x'.repeat(501) }, 'text'],
    [{ text: 'weekends', extra: 1 }, 'extra'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await api('POST', '/api/v1/availability/parse.json', { body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toContain(field);
  });

  it('is limited per client address', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await api('POST', '/api/v1/availability/parse.json', { body: { text: 'weekends' }, ip })).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await api('POST', '/api/v1/availability/parse.json', { body: { text: 'weekends' }, ip: freshIp() })).status).toBe(200);
  });
});

describe('Discover when= and the order of a card\'s activities', () => {
  it('finds people free at the times named instead of the caller\'s own, and lists the searched activities first', async () => {
    const at = spot(3);
    const caller = await completeAt(at, ['hiking', 'chess'], 'weekends');
    const evenings = await completeAt({ latitude: at.latitude + 0.01, longitude: at.longitude }, ['tennis', 'chess', 'hiking'], 'weekday evenings');
    const own = await api('GET', '/api/v1/discover.json?activities=hiking&radius_km=5', { token: caller.token });
    expect(own.body.results.map((r: { user: { id: string } }) => r.user.id)).not.toContain(evenings.id);

    const when = await api('GET', '/api/v1/discover.json?activities=hiking&radius_km=5&when=weekday%20evenings', { token: caller.token });
    expect(when.status).toBe(200);
    expect(when.body.search.when).toBe('Weekday evenings (5pm–midnight)');
    const found = when.body.results.find((r: { user: { id: string } }) => r.user.id === evenings.id);
    expect(found.overlap_hours).toBeGreaterThan(0);
    expect(found.user.activities).toEqual(['hiking', 'chess', 'tennis']);
    expect(when.body.next_url).toBeNull();
  });

  it.each([
    ['when=when%20the%20moon%20is%20full', /did not understand "when the moon is full"/],
    ['when=weekends%2C%20blue%20moons', /did not understand "blue moons"/],
  ])('refuses %s instead of widening the search', async (query, message) => {
    const caller = await completeAt(spot(4), ['hiking'], 'weekends');
    const res = await api('GET', `/api/v1/discover.json?${query}`, { token: caller.token });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.when).toMatch(message);
  });
});

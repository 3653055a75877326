// Forgiving input (issue 14 §2): the shapes agents commonly send instead of the
// documented ones are accepted, stored as if sent right, and reported one by one in
// warnings.normalized; what stays ambiguous is refused with the exact fix in error.fields.
import { describe, expect, it } from 'vitest';
import { makeImage } from '@/lib/photos/test-images';
import { api, registerUser, testDb, uniqueEmail } from './client';

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
    ['coords out of range as text', { coords: '95,10' }, 'coords.latitude', /<=90/],
    ['availability as a number', { availability: 42 }, 'availability', /use availability_text: "weekday evenings after 6"/],
    ['activities with a bad item', { activities: ['ok', 'x'.repeat(101)] }, 'activities.1', /100/],
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

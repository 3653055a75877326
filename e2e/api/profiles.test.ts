// /api/v1/me.json, /api/v1/me/complete.json and the public profile, against the real server.
import { describe, expect, it } from 'vitest';
import { getHealth, listActivities } from '@/lib/contract/meta';
import {
  completeOnboarding,
  getMe,
  getOnboarding,
  getPublicProfile,
  ownProfileSchema,
  publicProfileSchema,
  updateMe,
} from '@/lib/contract/profiles';
import { api, registerUser, testDb } from './client';
import { call, callWithHeaders, pathOf, refused, refusedRaw } from './contract-client';

describe('authentication', () => {
  it.each([
    ['no header', undefined, 'Bearer realm="api"'],
    ['an unknown token', 'Bearer bm_at_notarealtoken', 'invalid_token'],
    ['a malformed header', 'Token abc', 'Bearer realm="api"'],
  ])('answers %s with 401 and a Bearer challenge', async (_name, authorization, challenge) => {
    const res = await refused(getMe, { headers: authorization ? { authorization } : {} }, 'unauthorized');
    expect(res.hint).toMatch(/register/);
    expect(res.headers.get('www-authenticate')).toContain(challenge);
  });

  it('rejects a revoked token', async () => {
    const user = await registerUser();
    await testDb()
      .updateTable('access_tokens')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', user.id)
      .execute();
    await refused(getMe, { token: user.token }, 'unauthorized');
  });

  it('answers 403 insufficient_scope for a token without the scope', async () => {
    const user = await registerUser();
    await testDb()
      .updateTable('access_tokens')
      .set({ scopes: ['profile:read'] })
      .where('user_id', '=', user.id)
      .execute();
    await call(getMe, { token: user.token });
    await refused(updateMe, { token: user.token, body: { aboutMe: 'x' } }, 'insufficient_scope');
  });
});

describe('GET /api/v1/me.json', () => {
  it('returns the full own profile', async () => {
    const user = await registerUser({
      displayName: 'Own',
      birthday: '1995-06-15',
      coords: { latitude: 52.52, longitude: 13.405 },
    });
    const res = await callWithHeaders(getMe, { token: user.token });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const profile = ownProfileSchema.parse(res.data.profile);
    expect(profile).toMatchObject({
      id: user.id,
      displayName: 'Own',
      birthday: '1995-06-15',
      coords: { latitude: 52.52, longitude: 13.405 },
      coords_source: 'client',
    });
    expect(profile.public_location).toMatch(/^Berlin/);
    expect(profile.age).toBeGreaterThanOrEqual(30);
    expect(profile.schedule).toHaveLength(7);
    expect(profile.schedule_summary).toMatch(/no availability/i);
  });
});

describe('PATCH /api/v1/me.json', () => {
  it('updates only the fields sent and re-canonicalizes plain English', async () => {
    const user = await registerUser({ aboutMe: 'Before', location: 'Berlin', agentName: 'PatchBot' });
    const res = await call(updateMe, {
      token: user.token,
      body: {
        activities: ['bouldering', 'board games'],
        availability_text: 'Tuesday and Thursday evenings',
        agentName: 'PatchBot',
      },
    });
    expect(res.success).toBe(true);
    expect(res.profile.aboutMe).toBe('Before');
    expect(res.profile.activities).toEqual(['rock_climbing', 'board_games']);
    expect(res.warnings.schedule_summary).toMatch(/tuesday/i);
    const row = await testDb()
      .selectFrom('users')
      .select(['schedule', 'activities', 'availability_text'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.activities).toEqual(['rock_climbing', 'board_games']);
    expect(row.availability_text).toBe('Tuesday and Thursday evenings');
    // Tuesday (day 1) and Thursday (day 3) evenings: slots 11-17.
    const evening = '0'.repeat(11) + '1'.repeat(7);
    const off = '0'.repeat(18);
    expect(row.schedule).toBe(off + evening + off + evening + off + off + off);
    const actions = await testDb()
      .selectFrom('agent_actions')
      .select(['action', 'agent_name'])
      .where('user_id', '=', user.id)
      .execute();
    expect(actions).toContainEqual({ action: 'update_profile', agent_name: 'PatchBot' });
  });

  it('accepts both schedule grid forms and merges them with text', async () => {
    const user = await registerUser();
    const res = await call(updateMe, {
      token: user.token,
      body: { schedule: { '0_0': true, '6_17': true }, availability: [{ day: 'wed', period: 'morning' }] },
    });
    const grid = res.profile.schedule;
    expect(grid[0]?.[0]).toBe(true);
    expect(grid[6]?.[17]).toBe(true);
    expect(grid[2]?.slice(0, 6).every(Boolean)).toBe(true);
    expect(grid.flat().filter(Boolean)).toHaveLength(8);
  });

  it('clears optional fields with null and re-geocodes a new location', async () => {
    const user = await registerUser({ aboutMe: 'Bio', location: 'Berlin', gender: 'female' });
    const res = await call(updateMe, {
      token: user.token,
      body: { aboutMe: null, gender: null, location: 'Paris, France' },
    });
    expect(res.profile).toMatchObject({
      aboutMe: null,
      gender: null,
      location: 'Paris, France',
      coords_source: 'gazetteer',
    });
    expect(res.profile.coords?.latitude).toBeCloseTo(48.85, 0);
    expect(res.onboarding.missing).toEqual(expect.arrayContaining(['aboutMe', 'gender']));
  });

  it('warns when a location cannot be placed', async () => {
    const user = await registerUser();
    const res = await call(updateMe, { token: user.token, body: { location: 'Qwzxv Plmnb' } });
    expect(res.warnings.location_unresolved).toMatch(/coords/);
    expect(res.profile.coords).toBeNull();
  });

  it.each([
    ['displayName null', { displayName: null }, 'displayName'],
    ['aboutMe too long', { aboutMe: 'x'.repeat(601) }, 'aboutMe'],
    ['birthday too recent', { birthday: new Date().toISOString().slice(0, 10) }, 'birthday'],
    ['unknown field', { email: 'new@example.com' }, 'email'],
    ['schedule key out of range', { schedule: { '7_0': true } }, 'schedule'],
  ])('rejects %s with 400', async (_name, body, field) => {
    const user = await registerUser();
    // Values and fields the contract's types forbid: raw, and the answer read as the error envelope.
    const error = refusedRaw(await api('PATCH', pathOf(updateMe), { token: user.token, body }), 'validation_failed');
    expect(Object.keys(error.fields ?? {}).some((k) => k === field || k.startsWith(`${field}.`))).toBe(true);
  });
});

describe('/api/v1/me/complete.json', () => {
  it('lists what is missing and refuses to complete with 422', async () => {
    const user = await registerUser({
      aboutMe: 'Hi',
      gender: 'male',
      birthday: '1980-01-01',
      location: 'London, UK',
      activities: ['tennis'],
      availability_text: 'weekends',
    });
    const status = await call(getOnboarding, { token: user.token });
    expect(status).toMatchObject({ complete: false, missing: ['photo'] });
    expect(status.next_action_for_user).toMatch(/photo/);

    const post = await refused(completeOnboarding, { token: user.token }, 'onboarding_incomplete');
    expect(post).toMatchObject({ code: 'onboarding_incomplete', fields: { photo: expect.any(String) } });
    const row = await testDb()
      .selectFrom('users')
      .select('onboarding_complete')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.onboarding_complete).toBe(false);
  });
});

describe('GET /api/v1/users/{slug}/profile.json', () => {
  it('finds a user by slug or id and shows strangers only the public view', async () => {
    const user = await registerUser({
      displayName: 'Pub Lic',
      birthday: '1991-03-03',
      showAgeByDecade: true,
      coords: { latitude: 51.5072, longitude: -0.1276 },
      location: '221B Baker Street, London',
    });
    for (const key of [user.slug, user.id, user.slug.toUpperCase()]) {
      const res = await call(getPublicProfile, { params: { slug: key } });
      const profile = publicProfileSchema.strict().parse(res.profile);
      expect(profile).toMatchObject({
        view: 'public',
        id: user.id,
        slug: user.slug,
        displayName: 'Pub',
        age: null,
        age_bucket: null,
        discoverable: false,
      });
      expect(profile.location).toMatch(/^London/);
      expect(JSON.stringify(res)).not.toMatch(/Baker|1991-03-03|51\.5072|@example\.com/);
    }
  });

  it('answers 404 with the envelope for an unknown slug', async () => {
    await refused(getPublicProfile, { params: { slug: 'no-such-person-here' } }, 'not_found');
  });
});

describe('GET /api/v1/activities.json', () => {
  it('lists canonical activities', async () => {
    const res = await call(listActivities, {});
    expect(res.total).toBe(res.activities.length);
    expect(res.activities).toContainEqual(expect.objectContaining({ id: 'hiking', name: expect.any(String) }));
  });
});

describe('GET /api/health', () => {
  it('reports the database up', async () => {
    expect(await call(getHealth, {})).toEqual({ ok: true, db: 'up' });
  });
});

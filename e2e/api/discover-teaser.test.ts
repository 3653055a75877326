// GET /api/v1/web/discover_teaser.json (issue 31 §2): what Discover shows a profile that is not
// complete yet. A count of complete profiles near the caller who like what the caller likes,
// rounded down to a multiple of 5 (below 5: 0), never who they are. Each person here is at one
// spot in the open sea, so no other test's people are nearby and the right count is known.
import { describe, expect, it } from 'vitest';
import { discover } from '@/lib/contract/discover';
import { uploadPhoto } from '@/lib/contract/photos';
import { getMe } from '@/lib/contract/profiles';
import { blockUser } from '@/lib/contract/safety';
import { discoverTeaser } from '@/lib/contract/web-app';
import { makeImage } from '@/e2e/support/photos/test-images';
import { registerUser } from './client';
import { call, refused } from './contract-client';

const SPOT = { latitude: -47.25, longitude: -118.75 };
const KM_PER_DEGREE = 111.2;

/** Every Discover field but the photo, `km` north of the spot. */
const profile = (name: string, km: number, activities: string[]) => ({
  displayName: name,
  aboutMe: `I am ${name}.`,
  gender: 'female',
  birthday: '1990-01-01',
  location: 'Open sea',
  coords: { latitude: SPOT.latitude + km / KM_PER_DEGREE, longitude: SPOT.longitude },
  activities,
  availability_text: 'weekends',
});

const addPhoto = async (token: string) =>
  call(uploadPhoto, { token, body: { photo: (await makeImage('png', { width: 64, height: 64 })).toString('base64') } });

async function person(name: string, km: number, activities: string[], complete = true) {
  const user = await registerUser(profile(name, km, activities));
  if (complete) expect((await addPhoto(user.token)).onboarding.complete).toBe(true);
  return { name, ...user };
}

const teaser = (token: string) => call(discoverTeaser, { token });

describe('GET /api/v1/web/discover_teaser.json', () => {
  it('counts complete profiles near an incomplete one who share an activity, rounded, naming nobody', async () => {
    const caller = await person('Tess Teaser', 0, ['hiking', 'chess'], false);
    const hikers = await Promise.all([1, 2, 3, 4].map((km) => person(`Hiker ${km}`, km + 0.3, ['hiking'])));
    const unfinished = await person('Hiker Unfinished', 1.6, ['hiking'], false);
    const others = [
      await person('Far Hiker', 60, ['hiking']),
      await person('Swimmer Near', 1.2, ['swimming']),
      unfinished,
    ];

    // Four match: under five, so no number; the unfinished hiker, the far one and the swimmer never count.
    expect(await teaser(caller.token)).toEqual({
      complete: false,
      missing: ['photo'],
      nearby: { at_least: 0, radius_km: 25, activities: ['hiking', 'chess'] },
    });

    // The unfinished hiker adds a photo: now five match (a stored change, seen at once).
    await addPhoto(unfinished.token);
    const five = await teaser(caller.token);
    expect(five.nearby?.at_least).toBe(5);

    // Nothing in the answer identifies anyone: no id, slug or name, and only the three keys.
    const text = JSON.stringify(five);
    for (const someone of [...hikers, ...others]) {
      for (const secret of [someone.id, someone.slug, someone.name]) expect(text).not.toContain(secret);
    }
    expect(Object.keys(five).sort()).toEqual(['complete', 'missing', 'nearby']);

    // Someone the caller blocked is not counted (Discover would not show them either).
    await call(blockUser, { token: caller.token, params: { slug: hikers[0]!.slug } });
    expect((await teaser(caller.token)).nearby?.at_least).toBe(0);

    // Once the caller's profile is complete the teaser has nothing to say, and Discover shows the people.
    await addPhoto(caller.token);
    expect(await teaser(caller.token)).toEqual({ complete: true, missing: [], nearby: null });
    const found = await call(discover, { token: caller.token, query: { available: 0 } });
    expect(found.results.map((r) => r.user.slug).sort()).toEqual(
      [...hikers.slice(1), unfinished].map((h) => h.slug).sort(),
    );
  });

  it('has no count without a place on the map, and needs a signed-in caller', async () => {
    const placeless = await registerUser({ displayName: 'No Place', activities: ['hiking'] });
    const answer = await teaser(placeless.token);
    expect(answer.complete).toBe(false);
    expect(answer.missing).toEqual(expect.arrayContaining(['location', 'coords', 'photo']));
    expect(answer.nearby).toBeNull();
    expect((await call(getMe, { token: placeless.token })).profile.onboarding.complete).toBe(false);

    await refused(discoverTeaser, {}, 'unauthorized');
  });
});

// Issue 41 §2: nobody is put on show without saying yes. With REQUIRE_PERSON_CONSENT on, a
// complete profile an assistant registers (inline photo and all) stays out of Discover, its
// /u/{slug} page and link preview, and every path naming it, until the person says "Yes, show
// me to people nearby" on the web; no bearer token can say it for them. The switch is read at
// start, so it gets a second server of its own on the shared database (no second PostgreSQL,
// no second build): what it decides is stored per account, and both servers then see the same.
// "This wasn't me" takes the photo and the profile down at once (the shared server, default).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createNotMeLink } from '@/lib/accounts/not-me-links';
import { startServerProcess, type ServerProcess } from '../support/stack';
import { api, baseUrl, freshIp, TINY_PNG_BASE64, testDb, uniqueEmail } from './client';
import { WebClient } from './web-client';

const SHOW_ME = '/api/v1/web/show_me.json';
// A place of their own, so nobody else's test users crowd the first Discover page.
const HERE = { latitude: 65.6826, longitude: -18.0908 };

let consent: ServerProcess;

beforeAll(async () => {
  consent = await startServerProcess({
    databaseUrl: inject('databaseUrl'),
    dataDir: inject('dataDir'),
    env: { REQUIRE_PERSON_CONSENT: '1' },
    args: ['--role=web'],
    logName: 'server-consent.log',
  });
}, 120_000);
afterAll(async () => consent?.stop());

/** A complete profile with an inline photo, as an assistant registers it. */
async function register(name: string, base: string, offsetKm: number) {
  const res = await api('POST', '/api/v1/register.json', {
    base,
    body: {
      email: uniqueEmail('consent'),
      displayName: name,
      aboutMe: `${name} walks to see the birds.`,
      location: 'Akureyri, Iceland',
      coords: { latitude: HERE.latitude + offsetKm / 111, longitude: HERE.longitude },
      gender: 'female',
      birthday: '1988-04-02',
      activities: ['birdwatching', 'hiking'],
      availability_text: 'weekends',
      photo: TINY_PNG_BASE64,
      agentName: 'Consent Test Agent',
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    body: res.body,
    id: res.body.user.id as string,
    slug: res.body.user.slug as string,
    token: res.body.auth.token as string,
    signinToken: new URL(res.body.auth.mobile_signin_url as string).searchParams.get('token')!,
  };
}
type Person = Awaited<ReturnType<typeof register>>;

const stored = (id: string) =>
  testDb()
    .selectFrom('users')
    .select(['awaiting_person_consent', 'onboarding_complete'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const postings = async (id: string) =>
  Number(
    (
      await testDb()
        .selectFrom('discover_postings')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );
const discovered = async (by: Person, base = baseUrl()) => {
  const res = await api('GET', '/api/v1/discover.json?activities=birdwatching&radius_km=50&limit=50', {
    token: by.token,
    base,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.results as Array<{ user: { id: string } }>).map((r) => r.user.id);
};

describe('REQUIRE_PERSON_CONSENT: an assistant-made profile waits for its person (issue 41 §2)', () => {
  let held: Person;
  let seeker: Person;
  // The person's own browser, signed in by the sign-in link the assistant was given.
  let person: WebClient;

  beforeAll(async () => {
    [held, seeker] = await Promise.all([
      register('Hulda Held', consent.baseUrl, 0),
      register('Sigga Seeker', baseUrl(), 1),
    ]);
  });

  it('says so at registration: complete, yet awaiting the person, and what they must do', async () => {
    expect(held.body.onboarding).toEqual({ complete: true, missing: [], awaiting_person_consent: true });
    expect(held.body.next_action_for_user).toMatch(
      /^Your profile is complete\. Nobody sees your profile until you say so: .*"Yes, show me to people nearby"\./,
    );
    expect(held.body.next_action_for_user).not.toContain('visible in Discover');
    expect(await stored(held.id)).toEqual({ awaiting_person_consent: true, onboarding_complete: true });
    expect(await postings(held.id)).toBe(0);
    const status = await api('GET', '/api/v1/me/complete.json', { token: held.token });
    expect(status.body).toMatchObject({ complete: true, missing: [], awaiting_person_consent: true });
    expect(status.body.next_action_for_user).toContain('Yes, show me to people nearby');
    const me = await api('GET', '/api/v1/me.json', { token: held.token });
    expect(me.body.profile.onboarding.awaiting_person_consent).toBe(true);
  });

  it('leaves the default as the contract has it: without the switch a complete profile shows at once', async () => {
    expect(seeker.body.onboarding).toEqual({ complete: true, missing: [], awaiting_person_consent: false });
    expect(seeker.body.next_action_for_user).toMatch(/^Your profile is complete and visible in Discover/);
    expect(await postings(seeker.id)).toBeGreaterThan(0);
    expect(await discovered(held)).toContain(seeker.id);
  });

  it('keeps the profile out of every search and every path that names it, like a person who does not exist', async () => {
    for (const base of [baseUrl(), consent.baseUrl]) expect(await discovered(seeker, base)).not.toContain(held.id);
    const nobody = await api('GET', '/api/v1/users/no-such-person-x9/profile.json', { token: seeker.token });
    expect(nobody.status).toBe(404);
    for (const name of [held.slug, held.id]) {
      for (const token of [seeker.token, undefined]) {
        const res = await api('GET', `/api/v1/users/${name}/profile.json`, { token });
        expect(res.status, name).toBe(404);
        expect(res.body.error.code).toBe('not_found');
        expect(res.body.error.hint).toBe(nobody.body.error.hint);
      }
    }
    const reach: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/users/${held.slug}/overlap.json`],
      ['GET', `/api/v1/users/${held.slug}/plan_options.json`],
      ['POST', `/api/v1/users/${held.slug}/buddy_request.json`, { message: 'Birds on Saturday?' }],
      ['POST', `/api/v1/users/${held.slug}/block.json`, {}],
      ['POST', `/api/v1/users/${held.slug}/report.json`, { reason: 'spam' }],
    ];
    for (const [method, path, body] of reach) {
      const res = await api(method, path, { token: seeker.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(
      await testDb().selectFrom('buddy_requests').select('id').where('recipient_id', '=', held.id).execute(),
    ).toEqual([]);
  });

  it('gives its public page and link preview no trace of the person, and noindex', async () => {
    for (const name of [held.slug, held.id]) {
      const page = await fetch(`${baseUrl()}/u/${name}`, { headers: { 'x-forwarded-for': freshIp() } });
      expect(page.status).toBe(404);
      const html = await page.text();
      expect(html).toMatch(/<meta name="robots" content="noindex/);
      expect(html).not.toContain('Hulda');
      expect(html).not.toMatch(/og:image|og:title" content="Hulda/);
    }
  });

  it('lets the profile send no buddy request: that would show it to a stranger', async () => {
    const res = await api('POST', `/api/v1/users/${seeker.slug}/buddy_request.json`, {
      token: held.token,
      body: { message: 'Hi!' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(res.body.error.hint).toContain('Yes, show me to people nearby');
    expect(await testDb().selectFrom('buddy_requests').select('id').where('sender_id', '=', held.id).execute()).toEqual(
      [],
    );
  });

  it('refuses every attempt of the assistant to say yes for the person', async () => {
    person = new WebClient(freshIp(), consent.baseUrl);
    const signedIn = await person.request(
      'POST',
      `/auth/callback/email?token=${held.signinToken}&callbackUrl=/account`,
    );
    expect(signedIn.status).toBe(302);
    // Its own registration token, on both servers; with the session cookie beside it the token still decides.
    for (const base of [baseUrl(), consent.baseUrl]) {
      const res = await api('POST', SHOW_ME, { token: held.token, base, body: {} });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'person_only' });
      expect(res.body.error.hint).toContain('Only the person can let their profile be seen');
    }
    const both = await api('POST', SHOW_ME, {
      token: held.token,
      base: consent.baseUrl,
      body: {},
      headers: { cookie: person.cookieHeader(), origin: consent.baseUrl },
    });
    expect(both.status).toBe(403);
    // A session cookie from another site (CSRF) is refused too.
    const crossSite = await person.request('POST', SHOW_ME, { json: {}, headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    // Nothing else an assistant can call says it either.
    const patched = await api('PATCH', '/api/v1/me.json', {
      token: held.token,
      body: { awaiting_person_consent: false },
    });
    expect(patched.status).toBe(400);
    expect(Object.keys(patched.body.error.fields)).toEqual(['awaiting_person_consent']);
    expect((await api('POST', '/api/v1/me/complete.json', { token: held.token, body: {} })).status).toBe(200);
    const tool = await api('POST', '/api/mcp', {
      token: held.token,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'show_me_to_people', arguments: {} } },
    });
    expect(JSON.stringify(tool.body)).toMatch(/Unknown tool/);

    expect(await stored(held.id)).toEqual({ awaiting_person_consent: true, onboarding_complete: true });
    expect(await postings(held.id)).toBe(0);
    expect(await discovered(seeker)).not.toContain(held.id);
  });

  it('shows the profile once the person says yes on the web, signed in by the link the assistant was given', async () => {
    const account = await person.request('GET', '/account');
    expect(account.status).toBe(200);
    expect(account.text).toContain('Nobody can see your profile yet');
    expect(account.text).toContain('Yes, show me to people nearby');

    const yes = await person.request('POST', SHOW_ME, { json: {}, headers: { origin: consent.baseUrl } });
    expect(yes.status, yes.text).toBe(200);
    expect(yes.json).toEqual({
      success: true,
      onboarding: { complete: true, missing: [], awaiting_person_consent: false },
    });
    expect(await stored(held.id)).toEqual({ awaiting_person_consent: false, onboarding_complete: true });
    expect(await postings(held.id)).toBeGreaterThan(0);
    expect(await discovered(seeker)).toContain(held.id);
    expect((await api('GET', `/api/v1/users/${held.slug}/profile.json`)).status).toBe(200);
    const page = await fetch(`${baseUrl()}/u/${held.slug}`, { headers: { 'x-forwarded-for': freshIp() } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hulda');
    expect((await person.request('GET', '/account')).text).not.toContain('Nobody can see your profile yet');
    // Saying it again changes nothing.
    const again = await person.request('POST', SHOW_ME, { json: {}, headers: { origin: consent.baseUrl } });
    expect(again.status).toBe(200);
    const request = await api('POST', `/api/v1/users/${seeker.slug}/buddy_request.json`, { token: held.token });
    expect(request.status).toBe(201);
  });

  it("never holds the person's own signup at /signup: it is theirs", async () => {
    const res = await api('POST', '/api/v1/web/signup.json', {
      base: consent.baseUrl,
      body: { email: uniqueEmail('consent-own'), displayName: 'Olga Own' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.onboarding.awaiting_person_consent).toBe(false);
    expect((await stored(res.body.user.id)).awaiting_person_consent).toBe(false);
  });
});

describe('"This wasn\'t me" takes the photo and the profile down at once (issue 41 §2)', () => {
  it('answers 404 for the photo, the thumbnail and the profile from the moment of the button', async () => {
    const victim = await register('Vala Victim', baseUrl(), 3);
    const seeker = await register('Stina Seeker', baseUrl(), 4);
    const me = await api('GET', '/api/v1/me.json', { token: victim.token });
    const { photoURL, thumbnailURL } = me.body.profile as { photoURL: string; thumbnailURL: string };
    // Before: whoever made the account shows the photo to everyone.
    for (const url of [photoURL, thumbnailURL]) expect((await fetch(url)).status).toBe(200);
    expect(await discovered(seeker)).toContain(victim.id);

    const { url } = await createNotMeLink(testDb(), victim.id, baseUrl());
    const token = new URL(url).searchParams.get('token')!;
    const confirmed = await new WebClient().request('POST', '/signin/not-me/confirm', {
      form: { token },
      headers: { origin: new URL(baseUrl()).origin },
    });
    expect(confirmed.status).toBe(303);

    for (const url of [photoURL, thumbnailURL]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const photos = await testDb().selectFrom('photos').select(['status']).where('user_id', '=', victim.id).execute();
    expect(photos).toEqual([{ status: 'cleared' }]);
    expect(
      await testDb()
        .selectFrom('users')
        .select(['photo_url', 'thumbnail_url'])
        .where('id', '=', victim.id)
        .executeTakeFirst(),
    ).toEqual({ photo_url: null, thumbnail_url: null });
    expect((await api('GET', `/api/v1/users/${victim.slug}/profile.json`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/u/${victim.slug}`, { headers: { 'x-forwarded-for': freshIp() } })).status).toBe(
      404,
    );
    expect(await postings(victim.id)).toBe(0);
    expect(await discovered(seeker)).not.toContain(victim.id);
    expect((await api('GET', '/api/v1/me.json', { token: victim.token })).status).toBe(401);
  });
});

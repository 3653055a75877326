// Issue 43 §3: what only the person may do (sharing, check-ins, "Did you meet?", the
// calendar feed, "show me") refuses every bearer token with 403 person_only before it reads
// anything else: a path to nothing, a body that would not validate and a real request all get
// the same answer, with a hint naming the page, and nothing is stored. The person's own web
// session still does it. The list comes from the contract, so a new person-only endpoint is
// tested without being added here.
import { describe, expect, it } from 'vitest';
import type { EndpointSpec } from '@/lib/contract/define';
import { webAppEndpoints } from '@/lib/contract/web-app';
import { api, baseUrl, freshIp, testDb, uniqueEmail } from './client';
import { WebClient } from './web-client';

const PASSWORD = 'person-only-Pw-4821';
const personOnlyEndpoints = (webAppEndpoints as readonly EndpointSpec[]).filter((spec) => spec.personOnly);

async function person() {
  const email = uniqueEmail('own');
  const res = await api('POST', '/api/v1/register.json', {
    body: { email, displayName: 'Pia Own', password: PASSWORD },
  });
  expect(res.status).toBe(201);
  const web = new WebClient(freshIp());
  await web.signInWithPassword(email, PASSWORD);
  expect(web.sessionCookie()).toBeTruthy();
  return { id: res.body.user.id as string, token: res.body.auth.token as string, web };
}

/** The endpoint's path with every {param} filled by `value`. */
const pathOf = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);

describe('person-only endpoints', () => {
  it('are the ones the guides name as the person’s own', () => {
    expect(personOnlyEndpoints.map((spec) => `${spec.method} ${spec.path}`).sort()).toEqual(
      [
        'DELETE /api/v1/me/calendar_feed.json',
        'GET /api/v1/me/calendar_feed.json',
        'POST /api/v1/me/calendar_feed.json',
        'POST /api/v1/plans/{planId}/review.json',
        'GET /api/v1/plans/{planId}/share.json',
        'POST /api/v1/plans/{planId}/share.json',
        'DELETE /api/v1/plans/{planId}/share.json',
        'POST /api/v1/plans/{planId}/checkin.json',
        'GET /api/v1/meetups/{meetupId}/share.json',
        'POST /api/v1/meetups/{meetupId}/share.json',
        'DELETE /api/v1/meetups/{meetupId}/share.json',
        'POST /api/v1/meetups/{meetupId}/checkin.json',
        'POST /api/v1/web/show_me.json',
      ].sort(),
    );
  });

  it('refuse a bearer token with 403 person_only before anything else, and store nothing', async () => {
    const pia = await person();
    const bodies: [string, unknown][] = [
      ['no body', undefined],
      ['a body that would not validate', { nonsense: true, outcome: 'maybe' }],
      ['a plausible body', { outcome: 'no_show', fine: true, contact_email: 'friend@example.com' }],
    ];
    for (const spec of personOnlyEndpoints) {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
        for (const [what, body] of bodies) {
          if (spec.method === 'GET' && body !== undefined) continue;
          const res = await api(spec.method, pathOf(spec.path, id), { token: pia.token, body });
          expect([spec.method, spec.path, what, res.status, res.body.error?.code]).toEqual([
            spec.method,
            spec.path,
            what,
            403,
            'person_only',
          ]);
          expect(res.body.error.hint).toBe(spec.personOnly!.hint);
        }
      }
    }
    const db = testDb();
    expect(await db.selectFrom('calendar_feeds').select('user_id').where('user_id', '=', pia.id).execute()).toEqual([]);
    expect(await db.selectFrom('plan_reviews').select('user_id').where('user_id', '=', pia.id).execute()).toEqual([]);
  });

  it('let the person’s own web session through (the calendar feed, start to end)', async () => {
    const pia = await person();
    const origin = { origin: new URL(baseUrl()).origin };
    const on = await pia.web.request('POST', '/api/v1/me/calendar_feed.json', { json: {}, headers: origin });
    expect(on.status).toBe(201);
    expect(on.json).toMatchObject({ on: true });
    expect(on.json.webcal_url).toMatch(/^webcal:\/\//);
    const state = await pia.web.request('GET', '/api/v1/me/calendar_feed.json', { headers: origin });
    expect([state.status, state.json.on]).toEqual([200, true]);
    // The token is still refused while the feed is on, and reads nothing of it.
    const byToken = await api('GET', '/api/v1/me/calendar_feed.json', { token: pia.token });
    expect([byToken.status, byToken.body.error.code, byToken.body.on]).toEqual([403, 'person_only', undefined]);
    const off = await pia.web.request('DELETE', '/api/v1/me/calendar_feed.json', { json: {}, headers: origin });
    expect([off.status, off.json.on]).toEqual([200, false]);
    expect(
      await testDb().selectFrom('calendar_feeds').select('user_id').where('user_id', '=', pia.id).execute(),
    ).toEqual([]);
  });
});

// 404 suggestions: the names agents reach for (issue 30 §3), found by synonym where the
// spelling is nowhere near ours, and by edit distance where it is.
import { describe, expect, it } from 'vitest';
import { closestEndpoints, endpointsAt } from './endpoint-paths';

const suggested = (method: string, path: string) =>
  closestEndpoints(method, path).map((spec) => `${spec.method} ${spec.path}`);

describe('closestEndpoints', () => {
  it.each([
    ['POST', '/api/v1/signup', 'POST /api/v1/register.json'],
    ['POST', '/api/v1/sign-up.json', 'POST /api/v1/register.json'],
    ['POST', '/api/v1/users', 'POST /api/v1/register.json'],
    ['POST', '/api/v1/accounts.json', 'POST /api/v1/register.json'],
    ['GET', '/api/v1/profile.json', 'GET /api/v1/me.json'],
    ['PATCH', '/api/v1/profile', 'PATCH /api/v1/me.json'],
    ['GET', '/api/v1/users/me.json', 'GET /api/v1/me.json'],
    ['GET', '/api/v1/account', 'GET /api/v1/me.json'],
    ['GET', '/api/v1/messages.json', 'GET /api/v1/chats.json'],
    ['GET', '/api/v1/friends', 'GET /api/v1/buddy_requests.json'],
    ['GET', '/api/v1/matches.json', 'GET /api/v1/discover.json'],
    ['GET', '/api/v1/notifications', 'GET /api/v1/inbox.json'],
    ['GET', '/api/v1/interests.json', 'GET /api/v1/activities.json'],
    // Spelling is still caught by distance.
    ['GET', '/api/v1/inbox', 'GET /api/v1/inbox.json'],
    ['POST', '/api/v1/me/photos.json', 'POST /api/v1/me/photo.json'],
  ])('%s %s suggests %s first', (method, path, expected) => {
    expect(suggested(method, path)[0]).toBe(expected);
  });

  it('suggests nothing for a path far from every name and synonym', () => {
    expect(suggested('GET', '/api/v1/quantum-flux-capacitor')).toEqual([]);
  });
});

describe("closestEndpoints with the prototype's property names as the path (issue 41)", () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    '/api/v1/%s.json finds no synonym and does not throw',
    (word) => {
      expect(() => suggested('GET', `/api/v1/${word}.json`)).not.toThrow();
      expect(suggested('GET', `/api/v1/${word}`).every((s) => /^GET \/api\/v1\//.test(s))).toBe(true);
    },
  );
});

describe('endpointsAt', () => {
  // A path without parameters wins over a template it also fits, as the router matches them.
  it.each([
    ['/api/v1/plans/read_time.json', ['read_plan_time']],
    ['/api/v1/plans/4f1c2a9e.json', ['get_plan']],
    ['/api/v1/nowhere.json', []],
  ])('%s → %j', (path, ids) => {
    expect(endpointsAt(path).map((spec) => spec.id)).toEqual(ids);
  });
});

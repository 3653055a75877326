// Issue 36: no query parameter is silently ignored. On the API's own endpoints a parameter the
// endpoint does not take is refused like an unknown body field, named, with the closest one it
// does take; pages, the health check and events.json (which forwards them) are left alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser } from './client';

let token: string;
beforeAll(async () => {
  token = (await registerUser()).token;
});

describe('unknown query parameters on /api/v1 endpoints', () => {
  it.each([
    // [method, path, auth, unknown name, expected field message]
    ['GET', '/api/v1/discover.json?activity=hiking', true, 'activity', 'unknown parameter (did you mean activities?)'],
    ['GET', '/api/v1/plans.json?veiw=upcoming', true, 'veiw', 'unknown parameter (did you mean view?)'],
    ['GET', '/api/v1/chats.json?limt=5', true, 'limt', 'unknown parameter (did you mean limit?)'],
    ['GET', '/api/v1/buddy_requests.json?status=pending', true, 'status', 'unknown parameter (did you mean state?)'],
    ['GET', '/api/v1/inbox.json?sort=new', true, 'sort', 'unknown parameter'],
    ['GET', '/api/v1/me.json?fields=all', true, 'fields', 'unknown parameter'],
    ['GET', '/api/v1/activities.json?lang=de', false, 'lang', 'unknown parameter'],
    ['POST', '/api/v1/availability/parse.json?tz=UTC', false, 'tz', 'unknown parameter'],
  ] as const)('%s %s answers 400 naming it', async (method, path, auth, name, message) => {
    const res = await api(method, path, {
      ...(auth ? { token } : {}),
      ...(method === 'POST' ? { body: { text: 'weekends' } } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toEqual({ [name]: message });
    expect(res.body.error.message).toContain(`${name} is not a parameter we know: remove it`);
    expect(res.body.error.hint).toMatch(/^Remove the parameters listed in error\.fields/);
  });

  it('still answers the parameters each endpoint takes', async () => {
    expect((await api('GET', '/api/v1/plans.json?view=upcoming&limit=5', { token })).status).toBe(200);
    expect((await api('GET', '/api/v1/buddy_requests.json?state=pending', { token })).status).toBe(200);
    expect((await api('GET', '/api/v1/activities.json')).status).toBe(200);
  });

  it('names every unknown parameter at once, and says what the endpoint takes', async () => {
    const res = await api('GET', '/api/v1/plans.json?view=upcoming&page=2&per_page=10', { token });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['page', 'per_page']);
    expect(res.body.error.hint).toContain('view, limit, cursor');
  });

  it('gives unknown body fields the same did-you-mean', async () => {
    const res = await api('PATCH', '/api/v1/me.json', { token, body: { displayname: 'Sam' } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ displayname: 'unknown field (did you mean displayName?)' });
    expect(res.body.error.message).toContain(
      'displayname is not a field we know: remove it (did you mean displayName?)',
    );
  });

  it('leaves addresses outside the contract alone (health check, pages)', async () => {
    expect((await api('GET', '/api/health?cachebust=123')).status).toBe(200);
    const page = await api('GET', '/?utm_source=newsletter');
    expect(page.status).toBeLessThan(400);
  });
});

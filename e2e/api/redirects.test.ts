// Issue 12 §3: redirects stay on the site. Every place a return path comes from the
// request (the sign-in page's callbackUrl for a signed-in visitor, and Auth.js's
// callbackUrl on password sign-in, link sign-in and sign-out) is attacked with the same
// table; the Location must resolve, as a browser resolves it, to this origin.
import { describe, expect, it } from 'vitest';
import { baseUrl, registerUser } from './client';
import { WebClient } from './web-client';

const PASSWORD = 'correct horse battery';

// As an attacker writes them into a link's query string (so decoded once by the server).
const ATTACKS: Array<[name: string, query: string]> = [
  ['%09 (tab)', '/%09/evil.example'],
  ['%0a (newline)', '/%0a/evil.example'],
  ['%0d%0a', '/%0d%0a/evil.example'],
  ['/\\', '/%5Cevil.example'],
  ['/\\ raw', '/\\evil.example'],
  ['\\\\', '%5C%5Cevil.example'],
  ['//', '//evil.example'],
  ['// encoded', '%2F%2Fevil.example'],
  ['/%2F', '/%252F/evil.example'],
  ['double-encoded tab', '/%2509/evil.example'],
  ['double-encoded backslash', '/%255Cevil.example'],
  ['leading space', '%20//evil.example'],
  ['/.//', '/.//evil.example'],
  ['https:', 'https://evil.example/'],
  ['http://evil', 'http://evil'],
  ['https: without slashes', 'https:evil.example'],
  ['javascript:', 'javascript:alert(document.domain)'],
  ['data:', 'data:text/html,%3Cscript%3Ealert(1)%3C/script%3E'],
];

const LEGITIMATE: Array<[query: string, expected: string]> = [
  ['%2Faccount%2Fprofile', '/account/profile'],
  ['%2Faccount%2Fdiscover%3Factivity%3Dhiking%26radius%3D25', '/account/discover?activity=hiking&radius=25'],
  ['%2Faccount%2Fchats%3Fq%3Drock%2520climbing', '/account/chats?q=rock%20climbing'],
];

/** The Location as a browser resolves it against the page that received it. */
function landing(location: string | null, from: string): URL {
  expect(location, 'a redirect').not.toBeNull();
  return new URL(location ?? '', new URL(from, baseUrl()));
}

async function signedIn(): Promise<WebClient> {
  const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
  const web = new WebClient();
  const res = await web.signInWithPassword(user.user.email, PASSWORD);
  expect(web.sessionCookie(), `sign-in failed: ${res.location}`).toBeDefined();
  return web;
}

describe('the sign-in page sends a signed-in visitor to callbackUrl', () => {
  it.each(ATTACKS)('only on this site: %s goes to /account', async (_name, query) => {
    const web = await signedIn();
    const page = `/signin?callbackUrl=${query}`;
    const res = await web.request('GET', page);
    expect(res.status).toBe(307);
    const target = landing(res.location, page);
    expect(target.origin).toBe(new URL(baseUrl()).origin);
    expect(`${target.pathname}${target.search}`).toBe('/account');
  });

  it.each(LEGITIMATE)('keeps a legitimate path with its query: %s', async (query, expected) => {
    const web = await signedIn();
    const page = `/signin?callbackUrl=${query}`;
    const res = await web.request('GET', page);
    expect(res.status).toBe(307);
    const target = landing(res.location, page);
    expect(target.origin).toBe(new URL(baseUrl()).origin);
    expect(`${target.pathname}${target.search}`).toBe(expected);
  });

  it('puts only a safe path into the sign-in forms of a visitor who is not signed in', async () => {
    const page = await new WebClient().request('GET', '/signin?callbackUrl=/%09/evil.example');
    expect(page.status).toBe(200);
    const values = [...page.text.matchAll(/name="callbackUrl" value="([^"]*)"/g)].map((m) => m[1]);
    expect(values).toEqual(['/account', '/account']);
  });
});

describe("Auth.js's callbackUrl", () => {
  it.each(ATTACKS)('after password sign-in: %s goes to /account', async (_name, query) => {
    const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
    const web = new WebClient();
    const csrfToken = await web.csrf();
    // The form field carries the value decoded, as a browser would post it.
    const callbackUrl = decodeURIComponentSafe(query);
    const res = await web.request('POST', '/auth/callback/password', {
      form: { csrfToken, email: user.user.email, password: PASSWORD, callbackUrl },
    });
    expect(web.sessionCookie()).toBeDefined();
    expect(landing(res.location, '/auth/callback/password').toString()).toBe(`${new URL(baseUrl()).origin}/account`);
  });

  it.each(ATTACKS)('after link sign-in (query string): %s goes to /account', async (_name, query) => {
    const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
    const token = new URL(user.auth.mobile_signin_url).searchParams.get('token')!;
    const web = new WebClient();
    const path = `/auth/callback/email?token=${token}&callbackUrl=${query}`;
    const res = await web.request('POST', path, { headers: { origin: new URL(baseUrl()).origin } });
    // Before: Auth.js answered a javascript:/data:/"\\" callbackUrl with a 500 and no sign-in.
    expect(res.status).toBe(302);
    expect(web.sessionCookie()).toBeDefined();
    expect(landing(res.location, path).toString()).toBe(`${new URL(baseUrl()).origin}/account`);
  });

  it('after sign-out: an off-site callbackUrl goes to /account, ours is kept', async () => {
    for (const [callbackUrl, expected] of [
      ['/\t/evil.example', '/account'],
      ['https://evil.example/', '/account'],
      ['/signin?signedOut=1', '/signin?signedOut=1'],
    ]) {
      const web = await signedIn();
      const res = await web.request('POST', '/auth/signout', {
        form: { csrfToken: await web.csrf(), callbackUrl: callbackUrl! },
      });
      const target = landing(res.location, '/auth/signout');
      expect(target.origin).toBe(new URL(baseUrl()).origin);
      expect(`${target.pathname}${target.search}`).toBe(expected);
    }
  });

  it.each(['https://evil.example/', 'javascript:alert(1)', '/\t/evil.example', '//evil.example'])(
    'ignores a forged callback-url cookie %j',
    async (forged) => {
      const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
      const web = new WebClient();
      const csrfToken = await web.csrf();
      web.cookies.set('authjs.callback-url', encodeURIComponent(forged));
      const res = await web.request('POST', '/auth/callback/password', {
        form: { csrfToken, email: user.user.email, password: PASSWORD },
      });
      expect(res.status).toBe(302);
      expect(web.sessionCookie()).toBeDefined();
      const target = landing(res.location, '/auth/callback/password');
      expect(target.origin).toBe(new URL(baseUrl()).origin);
      expect(target.pathname).not.toMatch(/^\/\//);
    },
  );
});

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// Issue 31: "Join to connect" carries the person through signup as connect=<slug>. Signup
// goes on to whatever it was given (continueTo, a client prop in the page's payload), so
// the attack is a crafted signup link: connect= or callbackUrl= naming another site.
describe('signup remembers whom to connect with, never another site', () => {
  /** Every continueTo the signup page hands its form (flight data escapes its quotes). */
  const continueTargets = (html: string) =>
    [...html.matchAll(/\\?"continueTo\\?":\\?"([^"\\]*)/g)].map((m) => m[1] ?? '').filter((v) => v !== '$undefined');

  it.each(ATTACKS)('connect=%s offers no way on', async (_name, query) => {
    for (const param of ['connect', 'callbackUrl']) {
      const page = await new WebClient().request('GET', `/signup?${param}=${query}`);
      expect(page.status).toBe(200);
      for (const target of continueTargets(page.text)) {
        expect(target, `${param}=${query}`).toMatch(/^\/(?![/\\])/);
        expect(new URL(target, baseUrl()).origin).toBe(new URL(baseUrl()).origin);
      }
      if (param === 'connect') expect(continueTargets(page.text)).toEqual([]);
    }
  });

  it('connect=<a member’s slug> goes on to their profile with the request offered', async () => {
    const maya = await registerUser({ displayName: 'Maya Target' });
    const page = await new WebClient().request('GET', `/signup?connect=${maya.user.slug}`);
    expect(continueTargets(page.text)).toContain(`/u/${maya.user.slug}?connect=1`);
    expect(page.text).toContain('then ask Maya to be buddies');
  });
});

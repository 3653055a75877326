// Issue 28 §8: request lines and headers that name another site, or no path at all, and the
// headers every answer carries. Each attack is sent as raw bytes over a socket (node:net),
// as an attacker would, because fetch cannot write an asterisk-form or absolute-form
// request line and fixes the Host header.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { baseUrl, freshIp } from './client';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Decodes a chunked body (RFC 9112 §7.1), enough for the small answers read here. */
function dechunk(raw: string): string {
  let out = '';
  let rest = raw;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return out;
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** Sends `head` (request line and headers, without the blank line) and `body` as written, and reads the answer. */
function raw(head: string, body = ''): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to ${head.split('\r\n')[0]}`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = headText.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        headers[name] = headers[name]
          ? `${headers[name]}, ${line.slice(colon + 1).trim()}`
          : line.slice(colon + 1).trim();
      }
      const bodyText = rest.join('\r\n\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: headers['transfer-encoding'] === 'chunked' ? dechunk(bodyText) : bodyText,
      });
    });
    const length = body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '';
    socket.write(`${head}\r\nX-Forwarded-For: ${freshIp()}\r\n${length}Connection: close\r\n\r\n${body}`);
  });
}

const ourHost = () => new URL(baseUrl()).host;
const ourOrigin = () => new URL(baseUrl()).origin;

/** A Location, as a browser resolves it against the request, stays on this site. */
function expectOnSite(location: string | undefined, path: string): void {
  if (location === undefined) return;
  expect(new URL(location, `${ourOrigin()}${path}`).origin, `Location: ${location}`).toBe(ourOrigin());
  expect(location, 'a scheme-relative Location leaves the site').not.toMatch(/^[/\\]{2}/);
}

describe('request targets that are not a path', () => {
  it.each(['GET', 'POST', 'HEAD'])('%s * (asterisk-form) gets a 400 envelope, not a 500', async (method) => {
    const res = await raw(`${method} * HTTP/1.1\r\nHost: ${ourHost()}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    if (method !== 'HEAD') {
      const body = JSON.parse(res.body) as { error: { code: string; message: string; hint: string } };
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.hint).toMatch(/path/);
    }
  });
});

describe('an absolute-form request line is served by its path only: its host is never used', () => {
  it.each([
    ['GET http://evil.example/api/v1/inbox.json', '/api/v1/inbox.json', 401],
    ['GET https://evil.example/api/v1/inbox.json/', '/api/v1/inbox.json', 401],
    ['GET http://evil.example/api/health', '/api/health', 200],
    ['GET http://evil.example/u/', '/u/', undefined],
    ['GET http://evil.example//evil.example/', '//evil.example/', undefined],
    ['GET http://evil.example/account', '/account', undefined],
    ['GET http://evil.example', '/', 200],
  ] as const)('%s', async (line, path, status) => {
    const res = await raw(`${line} HTTP/1.1\r\nHost: evil.example`);
    expect(res.status).toBeLessThan(500);
    if (status !== undefined) expect(res.status).toBe(status);
    // A path may name it (/evil.example/ is a path on this site); no other header may.
    const { location, refresh, ...others } = res.headers;
    expect(JSON.stringify(others)).not.toContain('evil.example');
    expectOnSite(location, path);
    if (refresh) expectOnSite(refresh.replace(/^\d+;\s*url=/i, ''), path);
  });

  it('a Host header naming another site changes no link either', async () => {
    for (const path of ['/u/', '/account', '/signin/']) {
      const res = await raw(`GET ${path} HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example`);
      expect(res.status, path).toBeLessThan(500);
      expect(JSON.stringify(res.headers), path).not.toContain('evil.example');
      expectOnSite(res.headers.location, path);
    }
  });
});

describe('OAuth links are built from PUBLIC_BASE_URL only', () => {
  it('X-Forwarded-Host (and Host, X-Forwarded-Proto) never reach verification_uri', async () => {
    const form = new URLSearchParams({ client_id: 'buddy-match-device', resource: `${baseUrl()}/api/mcp` }).toString();
    const res = await raw(
      'POST /oauth/device/auth HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n' +
        'X-Forwarded-Proto: https\r\nContent-Type: application/x-www-form-urlencoded',
      form,
    );
    expect(res.status, res.body).toBe(200);
    const started = JSON.parse(res.body) as Record<string, unknown>;
    expect(res.body).not.toContain('evil.example');
    expect(started.verification_uri).toBe(`${baseUrl()}/oauth/device`);
    expect(started).not.toHaveProperty('verification_uri_complete');
  });

  it('the discovery document names this site whatever Host and X-Forwarded-Host say', async () => {
    const res = await raw(
      'GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example',
    );
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('evil.example');
    expect((JSON.parse(res.body) as { issuer: string }).issuer).toBe(baseUrl());
  });
});

describe('client registration with text that is not valid Unicode', () => {
  const register = (body: string) =>
    raw(`POST /oauth/register HTTP/1.1\r\nHost: ${ourHost()}\r\nContent-Type: application/json`, body);

  it.each([
    ['client_name', '{"redirect_uris":["https://app.example/cb"],"client_name":"\\ud800"}'],
    ['client_name', '{"redirect_uris":["https://app.example/cb"],"client_name":"ok \\udfff then"}'],
    ['redirect_uris[0]', '{"redirect_uris":["https://app.example/\\ud800"]}'],
    ['body key', '{"redirect_uris":["https://app.example/cb"],"\\ud800":"x"}'],
  ])('a lone surrogate in %s gets 400 invalid_client_metadata (was a 500)', async (where, body) => {
    const res = await register(body);
    expect(res.status, res.body).toBe(400);
    const answer = JSON.parse(res.body) as { error: string; error_description: string };
    expect(answer.error).toBe('invalid_client_metadata');
    expect(answer.error_description).toContain(where);
  });

  it('a well-formed pair (an emoji, written escaped) still registers', async () => {
    const res = await register('{"redirect_uris":["https://app.example/cb"],"client_name":"Hiker \\ud83e\\udd7e"}');
    expect(res.status, res.body).toBe(201);
    expect((JSON.parse(res.body) as { client_name: string }).client_name).toBe('Hiker 🥾');
  });

  it('a body over oidc-provider’s 56 KB limit gets 413, not a reset', async () => {
    const res = await register(
      JSON.stringify({ redirect_uris: ['https://app.example/cb'], client_name: 'x'.repeat(60_000) }),
    );
    expect(res.status).toBe(413);
  });
});

describe('every answer carries the security headers', () => {
  const expectSecurityHeaders = (res: RawAnswer, what: string) => {
    expect(res.headers['x-frame-options'], what).toBe('DENY');
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    expect(res.headers['referrer-policy'], what).toBeDefined();
    expect(res.headers['content-security-policy'], what).toMatch(/frame-ancestors 'none'/);
  };

  it.each([
    ['the device sign-in page', 'GET /oauth/device', 200, /text\/html/],
    ['an oidc-provider error page', 'GET /oauth/authorize?client_id=nobody&response_type=code', 400, /text\/html/],
    ['an oidc-provider JSON error', 'POST /oauth/token', 400, /application\/json/],
    ['the discovery document', 'GET /.well-known/openid-configuration', 200, /application\/json/],
    ['a page', 'GET /signin', 200, /text\/html/],
    ['an API answer', 'GET /api/health', 200, /application\/json/],
    ['a static file', 'GET /icons/icon-192.png', 200, /image\/png/],
    ['a document', 'GET /llms.txt', 200, /text\/plain/],
  ] as const)('%s', async (what, line, status, type) => {
    const [method, target] = line.split(' ') as [string, string];
    const res = await raw(`${method} ${target} HTTP/1.1\r\nHost: ${ourHost()}`);
    expect(res.status, res.body.slice(0, 300)).toBe(status);
    expect(res.headers['content-type']).toMatch(type);
    expectSecurityHeaders(res, what);
    // Each header once: a repeated X-Frame-Options is invalid, and browsers ignore it.
    expect(res.headers['x-frame-options']).not.toContain(',');
  });

  it('a page keeps its own nonce CSP (the default never replaces it)', async () => {
    const res = await raw(`GET /signin HTTP/1.1\r\nHost: ${ourHost()}`);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
  });

  it('the device page keeps its own CSP, with the nonce of its inline stylesheet', async () => {
    const res = await raw(`GET /oauth/device HTTP/1.1\r\nHost: ${ourHost()}`);
    expect(res.headers['content-security-policy']).toMatch(/style-src 'self' 'nonce-/);
  });
});

import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from './error-response';
import {
  answerBadRequestTarget,
  answerClientError,
  originForm,
  pathProblem,
  pinToPublicOrigin,
  targetPath,
} from './request-target';

describe('targetPath', () => {
  it.each([
    ['/api/v1/me.json?x=%zz', '/api/v1/me.json'],
    ['/u/sam#frag', '/u/sam'],
    ['http://example.com/api/v1/me.json?x=1', '/api/v1/me.json'],
    ['http://example.com', '/'],
    ['*', '*'],
  ])('%s → %s', (target, path) => {
    expect(targetPath(target)).toBe(path);
  });
});

describe('originForm: an absolute-form target keeps only its path and query (its host is never ours to trust)', () => {
  it.each([
    ['http://evil.example/api/v1/inbox.json', '/api/v1/inbox.json'],
    ['https://evil.example/u/sam?x=1', '/u/sam?x=1'],
    ['http://evil.example', '/'],
    ['http://evil.example?x=1', '/?x=1'],
    ['HTTP://evil.example:8080//evil.example/x', '//evil.example/x'],
    ['/api/v1/me.json', '/api/v1/me.json'],
    ['*', '*'],
  ])('%s → %s', (target, expected) => {
    expect(originForm(target)).toBe(expected);
  });
});

describe('pinToPublicOrigin', () => {
  it('sets every header that names the host or scheme to PUBLIC_BASE_URL, whatever the client sent', () => {
    const headers: Record<string, string | undefined> = {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'javascript',
      'x-forwarded-port': '1',
      forwarded: 'host=evil.example',
    };
    pinToPublicOrigin(headers, 'https://buddies.example:8443');
    expect(headers).toEqual({
      host: 'buddies.example:8443',
      'x-forwarded-host': 'buddies.example:8443',
      'x-forwarded-proto': 'https',
    });
  });
});

describe('pathProblem', () => {
  it.each([
    ['/api/v1/users/%ED%A0%80/block.json', 'an encoded UTF-16 surrogate (the reported 500)'],
    ['/api/v1/users/%zz/profile.json', 'a % without hex digits'],
    ['/api/v1/users/%E0%A4%A/profile.json', 'a truncated sequence'],
    ['/api/v1/users/%E0%A4/profile.json', 'a sequence cut short'],
    ['/api/v1/users/%C0%AF/profile.json', 'an overlong slash'],
    ['/api/v1/users/%FF/profile.json', 'a byte that is never UTF-8'],
    ['/api/v1/users/%F4%90%80%80/profile.json', 'beyond U+10FFFF'],
    ['/api/v1/users/%/profile.json', 'a lone %'],
    ['/u/%ED%A0%80', 'a page with an encoded surrogate'],
    ['/u/%00', 'a page with NUL'],
    ['/account/chats/%1B', 'a page with an escape'],
    ['/u/%C2%85', 'a page with a C1 control'],
    ['*', 'the asterisk-form (GET * was a 500)'],
  ])('refuses %s (%s)', (path) => {
    expect(pathProblem(path)).not.toBeNull();
  });

  it.each([
    ['/api/v1/users/sam/profile.json'],
    ['/api/v1/users/%E6%9D%B1%E4%BA%AC/profile.json'], // 東京
    ['/api/v1/users/%F0%9F%91%8B/profile.json'], // an emoji, 4 bytes
    ['/api/v1/users/%00/profile.json'], // left to the contract, which names the parameter
    ['/api/v1/users/a%2Fb/profile.json'],
    ['/u/sam'],
    ['/u/%C3%A9'],
    ['/'],
  ])('lets %s through', (path) => {
    expect(pathProblem(path)).toBeNull();
  });
});

describe('answerBadRequestTarget over HTTP', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (answerBadRequestTarget(req, res)) return;
      res.end('routed');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string, method = 'GET') =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      });
      req.on('error', reject);
      req.end();
    });

  it.each(['/api/v1/users/%ED%A0%80/block.json', '/api/v1/users/%zz/profile.json', '/.well-known/%FF'])(
    'answers %s with the JSON envelope',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.type).toMatch(/^application\/json/);
      const body = JSON.parse(res.body) as {
        error: { code: keyof typeof ERROR_STATUS; message: string; hint: string; fields: Record<string, string> };
      };
      expect(body.error.code).toBe('validation_failed');
      expect(ERROR_STATUS[body.error.code]).toBe(400);
      expect(body.error.message).toMatch(/path/);
      expect(body.error.hint).toMatch(/encodeURIComponent/);
      expect(body.error.fields.path).toMatch(/UTF-8/);
    },
  );

  it.each(['/u/%ED%A0%80', '/signin%E0?x=1', '/u/%00'])('answers the page %s with a plain 400', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^Bad request/);
  });

  it('answers HEAD without a body', async () => {
    const res = await get('/u/%ED%A0%80', 'HEAD');
    expect(res.status).toBe(400);
    expect(res.body).toBe('');
  });

  it('routes good paths, and leaves a bad query string to the route', async () => {
    for (const path of ['/api/v1/users/sam/profile.json', '/u/%C3%A9', '/api/v1/events.json?q=%zz%ED%A0%80']) {
      expect((await get(path)).body).toBe('routed');
    }
  });
});

describe('answerClientError over HTTP', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('routed'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Writes raw bytes and reads until the server closes. */
  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });

  const bodyOf = (answer: string) =>
    JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
      error: { code: keyof typeof ERROR_STATUS; message: string; hint: string };
    };

  it('answers headers over 16 KB (a huge query string) with 431 and the envelope', async () => {
    const answer = await raw(`GET /api/v1/events.json?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    const body = bodyOf(answer);
    expect(body.error.code).toBe('headers_too_large');
    expect(ERROR_STATUS[body.error.code]).toBe(431);
    expect(body.error.hint).toMatch(/16 KB/);
  });

  it.each([
    ['a request line with a space in the path', 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a NUL byte in a header', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
    ['garbage', 'hello\r\n\r\n'],
  ])('answers %s with 400 and the envelope', async (_name, bytes) => {
    const answer = await raw(bytes);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer).error.code).toBe('validation_failed');
  });
});

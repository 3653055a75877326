// photoURL fetching against real HTTP servers on loopback, allowed only through the
// test-only port allowance; everything else is refused before a connection is made.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '@/e2e/support/http/test-helpers';
import { fetchPhotoUrl, type FetchPolicy } from './fetch-url';
import { makeImage } from '@/e2e/support/photos/test-images';
import { errorBody, errorStatus } from '../http/error-response';

function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, hits })),
  );
}

let png: Buffer;
let images: Awaited<ReturnType<typeof listen>>;
let other: Awaited<ReturnType<typeof listen>>;
let policy: FetchPolicy;
const closed: http.Server[] = [];

beforeAll(async () => {
  png = await makeImage('png', { width: 40, height: 30 });
  images = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/photo.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      res.end(png);
    } else if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      res.end();
    } else if (url.pathname === '/loop') {
      res.writeHead(301, { location: '/loop' });
      res.end();
    } else if (url.pathname === '/huge-declared') {
      res.writeHead(200, { 'content-length': String(6 * 1024 * 1024) });
      res.end();
    } else if (url.pathname === '/huge-streamed') {
      // Chunked, no length: the cap has to hold while reading.
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(256 * 1024, 7);
      let sent = 0;
      const pump = () => {
        while (sent < 40 && res.write(chunk)) sent++;
        if (sent < 40) res.once('drain', pump);
        else res.end();
      };
      pump();
    } else if (url.pathname === '/slow') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png.subarray(0, 10)); // and never finishes
    } else {
      res.writeHead(404);
      res.end('nope');
    }
  });
  other = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png);
  });
  closed.push(images.server, other.server);
  policy = { allowLoopbackPorts: [images.port], timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 3 };
});

afterAll(async () => {
  for (const server of closed) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

describe('fetchPhotoUrl with the test allowance for one loopback port', () => {
  it('downloads from the allowed port, by address or by name', async () => {
    expect((await fetchPhotoUrl(`http://127.0.0.1:${images.port}/photo.png`, policy)).equals(png)).toBe(true);
    expect((await fetchPhotoUrl(`http://localhost:${images.port}/photo.png`, policy)).equals(png)).toBe(true);
  });

  it('follows a redirect on the allowed port', async () => {
    const to = encodeURIComponent(`http://127.0.0.1:${images.port}/photo.png`);
    expect((await fetchPhotoUrl(`http://127.0.0.1:${images.port}/redirect?to=${to}`, policy)).equals(png)).toBe(true);
  });

  it.each([
    ['127.0.0.1 on another port', (p: number) => `http://127.0.0.1:${p}/photo.png`],
    ['localhost on another port', (p: number) => `http://localhost:${p}/photo.png`],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://10.0.0.1/photo.png'],
    ['IPv6 loopback', (p: number) => `http://[::1]:${p}/photo.png`],
  ])('refuses a redirect to %s without contacting it', async (_name, target) => {
    const hitsBefore = other.hits.length;
    const to = encodeURIComponent(target(other.port));
    const error = await errorOf(fetchPhotoUrl(`http://127.0.0.1:${images.port}/redirect?to=${to}`, policy));
    expect(error.code).toBe('photo_url_forbidden');
    expect(errorStatus(error)).toBe(400);
    expect(error.fields).toHaveProperty('photoURL');
    expect(other.hits.length).toBe(hitsBefore);
  });

  it.each([
    ['the metadata service', (p: number) => `http://169.254.169.254:${p}/latest/meta-data/`],
    ['a private address', (p: number) => `http://10.0.0.1:${p}/photo.png`],
    ['the unspecified address', (p: number) => `http://0.0.0.0:${p}/photo.png`],
  ])('refuses %s even on the allowed port, by its address', async (_name, target) => {
    const to = encodeURIComponent(target(images.port));
    const error = await errorOf(fetchPhotoUrl(`http://127.0.0.1:${images.port}/redirect?to=${to}`, policy));
    expect(error.code).toBe('photo_url_forbidden');
    expect(error.message).toMatch(/private, loopback, link-local or reserved/);
  });

  it('gives up after 3 redirects', async () => {
    const error = await errorOf(fetchPhotoUrl(`http://127.0.0.1:${images.port}/loop`, policy));
    expect(error.code).toBe('photo_fetch_failed');
    expect(error.message).toMatch(/redirects/);
  });

  it('refuses a declared length over the cap without reading the body', async () => {
    const error = await errorOf(fetchPhotoUrl(`http://127.0.0.1:${images.port}/huge-declared`, policy));
    expect(error.code).toBe('photo_too_large');
  });

  it('stops reading a body without length once it passes the cap', async () => {
    const error = await errorOf(fetchPhotoUrl(`http://127.0.0.1:${images.port}/huge-streamed`, policy));
    expect(error.code).toBe('photo_too_large');
    expect(errorStatus(error)).toBe(413);
  });

  it('gives up at the deadline', async () => {
    const started = Date.now();
    const error = await errorOf(fetchPhotoUrl(`http://127.0.0.1:${images.port}/slow`, { ...policy, timeoutMs: 300 }));
    expect(error.code).toBe('photo_fetch_failed');
    expect(error.message).toMatch(/within/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports a non-200 answer', async () => {
    const error = await errorOf(fetchPhotoUrl(`http://127.0.0.1:${images.port}/missing.png`, policy));
    expect(error.code).toBe('photo_fetch_failed');
    expect(error.message).toMatch(/HTTP 404/);
  });
});

describe('fetchPhotoUrl with the production policy', () => {
  const production: FetchPolicy = {
    allowLoopbackPorts: [],
    timeoutMs: 10_000,
    maxBytes: 5 * 1024 * 1024,
    maxRedirects: 3,
  };

  it.each([
    ['loopback over https', 'https://127.0.0.1/photo.png'],
    ['loopback in decimal notation', 'https://2130706433/photo.png'],
    ['loopback in short notation', 'https://127.1/photo.png'],
    ['a name resolving to loopback', 'https://localhost/photo.png'],
    ['IPv6 loopback', 'https://[::1]/photo.png'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/photo.png'],
    ['a private address', 'https://10.0.0.1/photo.png'],
    ['another private range', 'https://192.168.0.10/photo.png'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data/'],
    ['plain http', 'http://example.com/photo.png'],
    ['a non-standard port', 'https://example.com:8443/photo.png'],
    ['credentials in the URL', 'https://user:pass@example.com/photo.png'],
    ['another scheme', 'file:///etc/passwd'],
    ['a loopback port that only tests may use', 'http://127.0.0.1:80/photo.png'],
  ])('refuses %s', async (_name, url) => {
    const error = await errorOf(fetchPhotoUrl(url, production));
    expect(error.code).toBe('photo_url_forbidden');
    expect(errorBody(error).error.hint).toMatch(/https/);
  });

  it('does not contact a loopback server even when the port is real', async () => {
    const before = other.hits.length;
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const error = await errorOf(fetchPhotoUrl(`http://${host}:${other.port}/photo.png`, production));
      expect(error.code).toBe('photo_url_forbidden');
    }
    expect(other.hits.length).toBe(before);
  });

  it('reports a host that does not resolve', async () => {
    const error = await errorOf(fetchPhotoUrl('https://no-such-host.invalid/photo.png', production));
    expect(error.code).toBe('photo_fetch_failed');
  });
});

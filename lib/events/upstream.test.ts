// The proxy's cache and error mapping against a local stand-in upstream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@/lib/net/free-port';
import { eventsQuerySchema } from '../contract/events';
import { ApiError } from '../core/errors';
import {
  CACHE_ENTRY_OVERHEAD_BYTES,
  fetchUpstreamFeed,
  forwardedParams,
  upstreamCacheUsage,
  upstreamRequestUrl,
  type UpstreamSettings,
} from './upstream';
import { errorHeaders, errorStatus } from '../http/error-response';

type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse, hits: number) => void;

const requests: URL[] = [];
const behaviours = new Map<string, Behaviour>();
let server: http.Server;
let base: string;

const feed = (title: string) => ({
  events: [{ title, extra: { kept: true } }],
  total: 1,
  scraped_at_max: '2026-03-01T00:00:00.000Z',
});
const sendJson = (res: http.ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push(url);
    const test = url.searchParams.get('test') ?? '';
    const hits = requests.filter((r) => r.searchParams.get('test') === test).length;
    const behaviour = behaviours.get(test) ?? ((_req, response) => sendJson(response, feed('default')));
    behaviour(req, res, hits);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const settings = (overrides: Partial<UpstreamSettings> = {}): UpstreamSettings => ({
  url: base,
  timeoutMs: 1000,
  cacheSeconds: 60,
  cacheMaxBytes: 32 * 1024 * 1024,
  ...overrides,
});
const query = (params: Record<string, string>) => eventsQuerySchema.parse(params);
const hitsFor = (test: string) => requests.filter((r) => r.searchParams.get('test') === test).length;

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the forwarded query', () => {
  it('lists documented parameters first, then the others sorted, with limit and offset defaults', () => {
    const params = forwardedParams(query({ zeta: '1', city: 'Berlin', alpha: 'x y', q: 'yoga' }));
    expect(params.toString()).toBe('limit=40&offset=0&city=Berlin&q=yoga&alpha=x+y&zeta=1');
  });

  it("never lets the caller override the operator's own parameters", () => {
    const url = upstreamRequestUrl('https://up.example/feed?key=secret', new URLSearchParams('key=mine&city=Rome'));
    expect(url.toString()).toBe('https://up.example/feed?key=secret&city=Rome');
  });
});

describe('fetchUpstreamFeed', () => {
  it('passes the upstream body through, unknown item fields included', async () => {
    behaviours.set('body', (_req, res) => sendJson(res, feed('through')));
    const answer = await fetchUpstreamFeed(settings(), query({ test: 'body' }));
    expect(answer.body).toEqual(feed('through'));
    expect(answer.etag).toMatch(/^"[\w-]{32}"$/);
    expect(answer.maxAgeSeconds).toBe(60);
  });

  it('answers a burst of identical queries with one upstream request', async () => {
    behaviours.set('burst', (_req, res) => setTimeout(() => sendJson(res, feed('burst')), 100));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fetchUpstreamFeed(settings(), query({ test: 'burst', city: 'Oslo' }))),
    );
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
    expect(hitsFor('burst')).toBe(1);
    await fetchUpstreamFeed(settings(), query({ test: 'burst', city: 'Oslo' }));
    expect(hitsFor('burst')).toBe(1);
    await fetchUpstreamFeed(settings(), query({ test: 'burst', city: 'Bergen' }));
    expect(hitsFor('burst')).toBe(2);
  });

  it('serves a stale answer while one background request revalidates it, and keeps it if that fails', async () => {
    behaviours.set('swr', (_req, res, hits) =>
      hits === 3 ? sendJson(res, { error: 'down' }, 500) : sendJson(res, feed(`version ${hits}`)),
    );
    const fast = settings({ cacheSeconds: 1 });
    const q = query({ test: 'swr' });
    expect((await fetchUpstreamFeed(fast, q)).body.events[0]!.title).toBe('version 1');
    await new Promise((r) => setTimeout(r, 1100));
    // Stale: answered at once from the cache, refreshed behind the scenes.
    const stale = await fetchUpstreamFeed(fast, q);
    expect(stale.body.events[0]!.title).toBe('version 1');
    expect(stale.maxAgeSeconds).toBe(0);
    await expect.poll(() => hitsFor('swr')).toBe(2);
    await expect.poll(async () => (await fetchUpstreamFeed(fast, q)).body.events[0]!.title).toBe('version 2');
    await new Promise((r) => setTimeout(r, 1100));
    // The next refresh fails: the stale answer is still served.
    expect((await fetchUpstreamFeed(fast, q)).body.events[0]!.title).toBe('version 2');
    await expect.poll(() => hitsFor('swr')).toBe(3);
    expect((await fetchUpstreamFeed(fast, q)).body.events[0]!.title).toBe('version 2');
  });

  describe('a cache bounded in bytes', () => {
    /** An answer of about `kib` KiB of JSON. */
    const sized = (title: string, kib: number) => ({
      ...feed(title),
      events: [{ title, description: 'x'.repeat(kib * 1024) }],
    });

    it('serves an answer larger than the whole cache, without keeping it', async () => {
      behaviours.set('huge', (_req, res) => setTimeout(() => sendJson(res, sized('huge', 64)), 50));
      const small = settings({ cacheMaxBytes: 16 * 1024 });
      const q = query({ test: 'huge' });
      // A burst still shares one upstream request...
      const burst = await Promise.all(Array.from({ length: 5 }, () => fetchUpstreamFeed(small, q)));
      expect(burst.map((a) => a.body.events[0]!.title)).toEqual(Array(5).fill('huge'));
      expect(hitsFor('huge')).toBe(1);
      // ...but the answer was not stored: the next call asks again.
      expect((await fetchUpstreamFeed(small, q)).body).toEqual(sized('huge', 64));
      expect(hitsFor('huge')).toBe(2);
      expect(upstreamCacheUsage(small)).toEqual({ entries: 0, bytes: 0 });
    });

    it('drops the least recently used answers once their bytes pass the cap', async () => {
      behaviours.set('lru', (req, res) =>
        sendJson(res, sized(new URL(req.url ?? '/', 'http://x').searchParams.get('city') ?? '', 3)),
      );
      // Room for two answers of ~3 KiB (plus their per-entry overhead), not three.
      const capped = settings({ cacheMaxBytes: 10 * 1024 });
      const get = async (city: string) =>
        (await fetchUpstreamFeed(capped, query({ test: 'lru', city }))).body.events[0]!.title;
      const hits = (city: string) =>
        requests.filter((r) => r.searchParams.get('test') === 'lru' && r.searchParams.get('city') === city).length;
      expect([await get('A'), await get('B'), await get('A')]).toEqual(['A', 'B', 'A']);
      expect([hits('A'), hits('B')]).toEqual([1, 1]);
      await get('C'); // B is now the least recently used: it goes
      expect(upstreamCacheUsage(capped).entries).toBe(2);
      await get('A');
      expect(hits('A')).toBe(1);
      await get('B');
      expect(hits('B')).toBe(2);
    });

    it('never holds more than its cap, however many distinct queries arrive', async () => {
      behaviours.set('flood', (_req, res) => sendJson(res, sized('flood', 1)));
      const capped = settings({ cacheMaxBytes: 20 * 1024 });
      for (let i = 0; i < 60; i++) await fetchUpstreamFeed(capped, query({ test: 'flood', q: `query ${i}` }));
      const usage = upstreamCacheUsage(capped);
      expect(usage.bytes).toBeLessThanOrEqual(20 * 1024);
      // Each ~1 KiB answer is counted with its overhead: about nine fit, not sixty.
      expect(usage.entries).toBeLessThanOrEqual(Math.floor((20 * 1024) / (1024 + CACHE_ENTRY_OVERHEAD_BYTES)));
      expect(usage.entries).toBeGreaterThan(0);
    });
  });

  it('maps an upstream error status to upstream_error, keeping its Retry-After', async () => {
    behaviours.set('status', (_req, res) => sendJson(res, { error: 'busy' }, 503, { 'retry-after': '120' }));
    const error = await apiError(fetchUpstreamFeed(settings(), query({ test: 'status' })));
    expect(error.code).toBe('upstream_error');
    expect(errorStatus(error)).toBe(502);
    expect(error.message).toBe('The events upstream answered HTTP 503');
    expect(errorHeaders(error)['retry-after']).toBe('120');
    // Errors are not cached: the next call asks again.
    await apiError(fetchUpstreamFeed(settings(), query({ test: 'status' })));
    expect(hitsFor('status')).toBe(2);
  });

  it.each([
    ['not JSON', (res: http.ServerResponse) => res.end('<html>oops</html>'), /is not JSON/],
    ['the wrong shape', (res: http.ServerResponse) => sendJson(res, { items: [] }), /is not \{events/],
    [
      'events that are not objects',
      (res: http.ServerResponse) => sendJson(res, { events: ['a'], total: 1, scraped_at_max: null }),
      /is not \{events/,
    ],
    [
      'a fractional total',
      (res: http.ServerResponse) => sendJson(res, { events: [], total: 1.5, scraped_at_max: null }),
      /is not \{events/,
    ],
    [
      'too large',
      (res: http.ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024) });
        res.write('{"events": [');
      },
      /is larger than 10485760 bytes/,
    ],
  ])('maps a body that is %s to upstream_error', async (name, respond, message) => {
    behaviours.set(`shape-${name}`, (_req, res) => respond(res));
    const error = await apiError(fetchUpstreamFeed(settings(), query({ test: `shape-${name}` })));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toMatch(message);
  });

  it('maps a refused connection to upstream_unavailable with Retry-After', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/events`;
    const error = await apiError(fetchUpstreamFeed(settings({ url: closed }), query({ test: 'closed' })));
    expect(error.code).toBe('upstream_unavailable');
    expect(errorStatus(error)).toBe(503);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(errorHeaders(error)['retry-after']).toBe('30');
  });

  it.each([
    ['headers', (res: http.ServerResponse) => setTimeout(() => sendJson(res, feed('late')), 1500)],
    [
      'body',
      (res: http.ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"events": [');
        setTimeout(() => res.end('], "total": 0, "scraped_at_max": null}'), 1500);
      },
    ],
  ])('maps an upstream too slow with its %s to upstream_unavailable', async (part, respond) => {
    behaviours.set(`slow-${part}`, (_req, res) => respond(res));
    const started = Date.now();
    const error = await apiError(fetchUpstreamFeed(settings({ timeoutMs: 300 }), query({ test: `slow-${part}` })));
    expect(error.code).toBe('upstream_unavailable');
    expect(error.message).toBe('The events upstream did not answer in time');
    expect(Date.now() - started).toBeLessThan(1200);
  });
});

// The GEOCODER_URL fallback: locations the offline gazetteer misses are placed by a
// Nominatim-compatible service through the job queue, at most one request per second.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register as registerSpec } from '@/lib/contract/accounts';
import { getMe, updateMe } from '@/lib/contract/profiles';
import { startStack, type Stack } from '../support/stack';
import { uniqueEmail } from './client';
import { call, refused, type CallInput } from './contract-client';

interface SeenRequest {
  q: string | null;
  format: string | null;
  userAgent: string | undefined;
  at: number;
}

let stack: Stack;
let geocoder: http.Server;
const seen: SeenRequest[] = [];

beforeAll(async () => {
  geocoder = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const q = url.searchParams.get('q');
    seen.push({ q, format: url.searchParams.get('format'), userAgent: req.headers['user-agent'], at: Date.now() });
    res.setHeader('content-type', 'application/json');
    if (q?.startsWith('Nowhere')) return res.end('[]');
    res.end(JSON.stringify([{ lat: '47.3769', lon: '8.5417', display_name: 'Zürich, Switzerland' }]));
  });
  await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
  const { port } = geocoder.address() as AddressInfo;
  stack = await startStack({ GEOCODER_URL: `http://127.0.0.1:${port}/search` });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  geocoder?.close();
});

async function register(location: string) {
  return call(registerSpec, { body: { email: uniqueEmail('geo'), displayName: 'Geo', location }, base: stack.baseUrl });
}

async function me(token: string) {
  return (await call(getMe, { token, base: stack.baseUrl })).profile;
}

describe('GEOCODER_URL fallback', () => {
  it('places unknown locations in the background, paced to one request per second', async () => {
    const a = await register('Qwertyhof Hamlet 1');
    const b = await register('Qwertyhof Hamlet 2');
    const lost = await register('Nowhere At All');
    expect(a.warnings?.location_unresolved).toMatch(/online lookup is queued/);

    let profiles: Awaited<ReturnType<typeof me>>[] = [];
    for (let i = 0; i < 60; i++) {
      profiles = await Promise.all([me(a.auth.token), me(b.auth.token)]);
      if (profiles.every((p) => p.coords !== null) && seen.length >= 3) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const profile of profiles) {
      expect(profile).toMatchObject({ coords: { latitude: 47.3769, longitude: 8.5417 }, coords_source: 'geocoder' });
      expect(profile.public_location).toMatch(/Zurich|Zürich/);
    }
    expect((await me(lost.auth.token)).coords).toBeNull();

    expect(seen.map((r) => r.q).sort()).toEqual(['Nowhere At All', 'Qwertyhof Hamlet 1', 'Qwertyhof Hamlet 2']);
    expect(seen.every((r) => r.format === 'jsonv2' && /BuddyMatch/.test(r.userAgent ?? ''))).toBe(true);
    const times = seen.map((r) => r.at).sort((x, y) => x - y);
    for (const [i, at] of times.entries()) if (i > 0) expect(at - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(950);
  }, 60_000);

  it('counts a queued lookup as a move of the coordinates, but not the job that applies it', async () => {
    const user = await register('Lyon, France');
    const patch = (body: CallInput<typeof updateMe>['body']) =>
      call(updateMe, { body, token: user.auth.token, base: stack.baseUrl });
    for (let i = 0; i < 8; i++) await patch({ coords: { latitude: 10 + i, longitude: 10 } });
    // The 9th: a place only the geocoder knows; the job places it later.
    await patch({ location: 'Qwertyhof Hamlet 3' });
    let profile = await me(user.auth.token);
    for (let i = 0; i < 60 && !profile.coords; i++) {
      await new Promise((r) => setTimeout(r, 250));
      profile = await me(user.auth.token);
    }
    expect(profile).toMatchObject({ coords: { latitude: 47.3769, longitude: 8.5417 }, coords_source: 'geocoder' });
    // Had the job counted, this 10th move would be the 11th.
    await patch({ coords: { latitude: 30, longitude: 30 } });
    const eleventh = { body: { coords: { latitude: 31, longitude: 30 } }, token: user.auth.token, base: stack.baseUrl };
    const tooMany = await refused(updateMe, eleventh, 'rate_limited');
    expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Object.keys(tooMany.fields ?? {})).toEqual(['coords']);
  }, 60_000);

  it('does not call the geocoder for places the gazetteer knows', async () => {
    const before = seen.length;
    const known = await register('Lyon, France');
    expect(known.warnings.location_unresolved).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen.length).toBe(before);
    expect((await me(known.auth.token)).coords_source).toBe('gazetteer');
  });
});

// What photos and signups cost us, and how fast a rejected photo disappears, on a stack
// of its own: the local storage driver (the app serves the blobs), google-vision
// moderation against a local stand-in whose verdicts can be held back, a local image
// server for photoURL (its one port allowed by the test-only PHOTO_FETCH_ALLOW_LOOPBACK_PORTS),
// one sharp job at a time with a waiting line of two, and two registrations per address.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '@/db';
import { register } from '@/lib/contract/accounts';
import { errorEnvelopeSchema } from '@/lib/contract/errors';
import { uploadPhoto } from '@/lib/contract/photos';
import { getMe, updateMe } from '@/lib/contract/profiles';
import { makeFlatImage, makeImage, makeJpegOfSize } from '@/e2e/support/photos/test-images';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { api as sharedApi, freshIp, uniqueEmail } from './client';
import { call, type CallInput, pathOf, refused, refusedRaw, send } from './contract-client';

const VISION_KEY = 'vision-test-key-safety';
const REGISTRATION_LIMIT = 2;

let stack: Stack;
let db: Database;
let vision: http.Server;
let images: http.Server;
let imagesPort: number;
const imageHits: string[] = [];

// --- the Cloud Vision stand-in: red is VERY_LIKELY adult, anything else passes --------
let holdVerdicts = false;
const heldVerdicts: (() => void)[] = [];
function releaseVerdicts(): void {
  holdVerdicts = false;
  for (const answer of heldVerdicts.splice(0)) answer();
}

async function isRed(image: Buffer): Promise<boolean> {
  const { dominant } = await sharp(image).stats();
  return dominant.r > 200 && dominant.g < 60 && dominant.b < 60;
}

/** Raw requests to this file's own stack, for bodies sent unread (rawBody). */
const api = (method: string, pathname: string, options: Parameters<typeof sharedApi>[2] = {}) =>
  sharedApi(method, pathname, { ...options, base: stack.baseUrl });
const base = () => stack.baseUrl;
type RegisterBody = NonNullable<CallInput<typeof register>['body']>;
const signup = (body: RegisterBody, ip?: string) => ({ body, ip, base: base() });

async function registered() {
  const res = await call(register, signup({ email: uniqueEmail('safety'), displayName: 'Safety Person' }));
  return { id: res.user.id, token: res.auth.token, slug: res.user.slug };
}

async function upload(token: string, image: Buffer) {
  return call(uploadPhoto, { token, body: { photo: image.toString('base64') }, base: base() });
}

const patchMe = (token: string, body: CallInput<typeof updateMe>['body']) => ({ token, body, base: base() });

const photoRow = (id: string) => db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const verdictOn = (photoId: string) =>
  waitFor(() => db.selectFrom('photo_moderation').selectAll().where('photo_id', '=', photoId).executeTakeFirst(), {
    what: `a verdict on ${photoId}`,
    timeoutMs: 20_000,
  });
const blobFile = (url: string) => path.join(stack.dataDir, 'blobs', new URL(url).pathname.replace(/^\/blobs\//, ''));
const serverLog = () => fs.readFileSync(path.join(stack.dataDir, 'server.log'), 'utf8');

/** A JSON POST on a connection of its own (no keep-alive pool). */
function postOnFreshConnection(pathname: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>((resolve, reject) => {
    const req = http.request(
      `${stack.baseUrl}${pathname}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': freshIp(),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  vision = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const request = JSON.parse(Buffer.concat(chunks).toString()) as { requests: { image: { content: string } }[] };
      const red = await isRed(Buffer.from(request.requests[0]!.image.content, 'base64'));
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const level = red ? 'VERY_LIKELY' : 'VERY_UNLIKELY';
        res.end(
          JSON.stringify({
            responses: [
              {
                safeSearchAnnotation: {
                  adult: level,
                  violence: 'VERY_UNLIKELY',
                  racy: level,
                  medical: 'UNLIKELY',
                  spoof: 'UNLIKELY',
                },
              },
            ],
          }),
        );
      };
      if (holdVerdicts) heldVerdicts.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => vision.listen(0, '127.0.0.1', resolve));

  const png = await makeImage('png', { width: 120, height: 90, colour: '#22aa44' });
  images = http.createServer((req, res) => {
    imageHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(png);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesPort = (images.address() as AddressInfo).port;

  stack = await startStack({
    MODERATION_PROVIDER: 'google-vision',
    GOOGLE_VISION_API_KEY: VISION_KEY,
    GOOGLE_VISION_ENDPOINT: `http://127.0.0.1:${(vision.address() as AddressInfo).port}/v1/images:annotate`,
    PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: String(imagesPort),
    PHOTO_PROCESSING_CONCURRENCY: '1',
    PHOTO_PROCESSING_QUEUE: '2',
    REGISTRATION_LIMIT_PER_HOUR: String(REGISTRATION_LIMIT),
  });
  db = createDb(stack.databaseUrl, 2);
}, 180_000);

afterAll(async () => {
  releaseVerdicts();
  await db?.destroy();
  await stack?.stop();
  for (const server of [vision, images]) {
    if (!server) continue;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}, 60_000);

describe('a photo is cached briefly until moderation passes it', () => {
  it('serves an unjudged photo for at most a minute, then for a year once kept', async () => {
    holdVerdicts = true;
    const user = await registered();
    const up = await upload(user.token, await makeFlatImage('jpeg', '#2255dd'));
    expect(up.photo.moderation).toBe('pending');

    for (const url of [up.photo.photoURL, up.photo.thumbnailURL]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(url, { method });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        const cacheControl = res.headers.get('cache-control')!;
        expect(cacheControl).toBe('public, max-age=60');
        expect(cacheControl).not.toMatch(/immutable/);
      }
    }
    // Revalidating costs a 304 without the image.
    const first = await fetch(up.photo.photoURL);
    const etag = first.headers.get('etag')!;
    const again = await fetch(up.photo.photoURL, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, max-age=60');

    releaseVerdicts();
    expect(await verdictOn(up.photo.id)).toMatchObject({ provider: 'google-vision', action: 'kept' });
    for (const url of [up.photo.photoURL, up.photo.thumbnailURL]) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers 404 for a rejected photo as soon as the verdict is in, its files and all', async () => {
    holdVerdicts = true;
    const user = await registered();
    const up = await upload(user.token, await makeFlatImage('png', '#ff0000', 800, 600));
    // Seen (and cacheable for a minute) while pending: this is the window the short max-age bounds.
    expect((await fetch(up.photo.photoURL)).headers.get('cache-control')).toBe('public, max-age=60');

    releaseVerdicts();
    expect(await verdictOn(up.photo.id)).toMatchObject({ action: 'removed', adult: 'VERY_LIKELY' });
    for (const url of [up.photo.photoURL, up.photo.thumbnailURL]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
      // A cache revalidating with its old ETag is told the same.
      expect((await fetch(url, { headers: { 'if-none-match': `"${path.basename(url, '.webp')}"` } })).status).toBe(404);
    }
    expect(await photoRow(up.photo.id)).toMatchObject({ status: 'rejected', moderation: 'removed' });
    // The files go too, by the deletion job.
    await waitFor(async () => ((await photoRow(up.photo.id)).blobs_deleted_at ? true : undefined), {
      what: 'the rejected files to be deleted',
    });
    expect(fs.existsSync(blobFile(up.photo.photoURL))).toBe(false);
  });

  it('refuses a rejected photo whose files are still on disk (the deletion job has not run)', async () => {
    const user = await registered();
    const up = await upload(user.token, await makeFlatImage('png', '#00aa00', 300, 200));
    await verdictOn(up.photo.id);
    expect((await fetch(up.photo.photoURL)).status).toBe(200);
    // Record a rejection the way the moderation job does, minus the deletion job, so the
    // files stay: before this change the route served any file on disk, for a year.
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('photos')
        .set({ moderation: 'removed', status: 'rejected' })
        .where('id', '=', up.photo.id)
        .execute();
      await trx
        .updateTable('users')
        .set({ photo_id: null, photo_url: null, thumbnail_url: null })
        .where('id', '=', user.id)
        .execute();
    });
    expect(fs.existsSync(blobFile(up.photo.photoURL))).toBe(true);
    expect(fs.existsSync(blobFile(up.photo.thumbnailURL))).toBe(true);
    for (const url of [up.photo.photoURL, up.photo.thumbnailURL]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('never serves a file on disk that is not a current photo in the database', async () => {
    // An orphan left by a crash between storing and committing: the right shape of key, no row.
    const orphan = 'photos/ZZZZZZZZZZZZZZZZZZZZZZ.webp';
    fs.mkdirSync(path.dirname(path.join(stack.dataDir, 'blobs', orphan)), { recursive: true });
    fs.writeFileSync(
      path.join(stack.dataDir, 'blobs', orphan),
      await sharp(await makeImage('png'))
        .webp()
        .toBuffer(),
    );
    const res = await fetch(`${stack.baseUrl}/blobs/${orphan}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('photo uploads are limited per account, counted before any work', () => {
  it('counts uploads and new photoURLs, not a photoURL sent back unchanged; over the limit nothing is read, fetched or decoded', async () => {
    const user = await registered();
    const first = await upload(user.token, await makeImage('png', { width: 64, height: 48 }));

    // Agents echo profiles: the current photoURL changes nothing and is not counted.
    for (let i = 0; i < 12; i++) {
      await call(updateMe, patchMe(user.token, { photoURL: first.photo.photoURL }));
    }
    // Nine new URLs: uploads 2-10 of the hour.
    for (let i = 2; i <= 10; i++) {
      await call(
        updateMe,
        patchMe(user.token, { photoURL: `http://127.0.0.1:${imagesPort}/limit-${user.id}-${i}.png` }),
      );
    }
    const fetched = () => imageHits.filter((hit) => hit.includes(`limit-${user.id}`)).length;
    expect(fetched()).toBe(9);
    const current = (await call(getMe, { token: user.token, base: base() })).profile.photoURL;

    // The 11th: refused before the URL is fetched.
    const eleventh = patchMe(user.token, {
      photoURL: `http://127.0.0.1:${imagesPort}/limit-${user.id}-11.png`,
      aboutMe: 'not saved',
    });
    const over = await refused(updateMe, eleventh, 'rate_limited');
    expect(over).toMatchObject({ code: 'rate_limited', hint: expect.any(String) });
    expect(over.message).toMatch(/photo uploads: at most 10 per hour\. Try again in \d+ minutes?\./);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(fetched()).toBe(9);
    expect(
      (await db.selectFrom('users').select('about_me').where('id', '=', user.id).executeTakeFirstOrThrow()).about_me,
    ).toBeNull();

    // The upload endpoint shares the count and refuses before reading the body: a 6 MB
    // body that would be a 400 if parsed (zeros are no image) is a 429.
    const photosBefore = (await db.selectFrom('photos').select('id').where('user_id', '=', user.id).execute()).length;
    const junk = JSON.stringify({ photo: 'A'.repeat(6 * 1024 * 1024) });
    const started = Date.now();
    const unread = await api('POST', pathOf(uploadPhoto), {
      token: user.token,
      rawBody: junk,
      headers: { 'content-type': 'application/json' },
    });
    const upload11 = refusedRaw(unread, 'rate_limited');
    expect(Number(upload11.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await db.selectFrom('photos').select('id').where('user_id', '=', user.id).execute()).length).toBe(
      photosBefore,
    );

    // Other edits, and echoing the current photo, still work.
    await call(updateMe, patchMe(user.token, { photoURL: current, aboutMe: 'still here' }));
    // Another account is unaffected.
    const other = await registered();
    await upload(other.token, await makeImage('png', { width: 32, height: 32 }));
  });
});

describe('registration checks its limit before any expensive work', () => {
  it('refuses an address at its limit without fetching its photoURL or reading its body', async () => {
    const ip = freshIp();
    for (let i = 0; i < REGISTRATION_LIMIT; i++) {
      await call(register, signup({ email: uniqueEmail('reglimit'), displayName: 'Limit' }, ip));
    }
    const email = uniqueEmail('reglimit-photo');
    const photoURL = `http://127.0.0.1:${imagesPort}/register-${email}.png`;
    const limited = await refused(
      register,
      signup({ email, displayName: 'Limit', password: 'correct horse battery', photoURL }, ip),
      'rate_limited',
    );
    expect(limited.message).toMatch(/Try again in \d+ minutes?\./);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Before the pre-check this request downloaded the photo (and hashed the password) first.
    expect(imageHits.filter((hit) => hit.includes(email))).toEqual([]);
    expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);

    // A 6 MB body from the same address is refused unread: 429, not a photo error.
    const junk = JSON.stringify({
      email: uniqueEmail('reglimit-junk'),
      displayName: 'Junk',
      photo: 'A'.repeat(6 * 1024 * 1024),
    });
    const big = refusedRaw(
      await api('POST', pathOf(register), { ip, rawBody: junk, headers: { 'content-type': 'application/json' } }),
      'rate_limited',
    );
    expect(Number(big.headers.get('retry-after'))).toBeGreaterThan(3500);

    // Another address registers with its photoURL as usual.
    await call(
      register,
      signup({
        email: uniqueEmail('reglimit-other'),
        displayName: 'Other',
        photoURL: `http://127.0.0.1:${imagesPort}/other.png`,
      }),
    );
  });

  it('refuses a taken email before fetching the photo or hashing the password', async () => {
    const taken = uniqueEmail('reg-taken');
    await call(register, signup({ email: taken, displayName: 'First' }));
    const photoURL = `http://127.0.0.1:${imagesPort}/taken-${taken}.png`;
    // Failed signups do not count toward the registration limit: each of these used to
    // cost a download, a decode and an argon2 hash, as often as one liked.
    for (let i = 0; i < 5; i++) {
      const again = signup({
        email: taken.toUpperCase(),
        displayName: 'Again',
        password: 'correct horse battery',
        photoURL,
      });
      const res = await refused(register, again, 'email_taken');
      expect(res).toMatchObject({ code: 'email_taken', fields: { email: 'already registered' } });
    }
    expect(imageHits.filter((hit) => hit.includes(taken))).toEqual([]);
  });

  it('counts the photos it decodes per address, failures included', async () => {
    const ip = freshIp();
    const corrupt = (await makeImage('jpeg', { width: 1600, height: 1200 })).subarray(0, 4000).toString('base64');
    for (let i = 0; i < 10; i++) {
      await refused(
        register,
        signup({ email: uniqueEmail('reg-corrupt'), displayName: 'Corrupt', photo: corrupt }, ip),
        'photo_invalid',
      );
    }
    // Ten decodes an hour from one address; the next is refused before decoding, valid or not.
    const valid = (await makeImage('png', { width: 64, height: 48 })).toString('base64');
    const limited = await refused(
      register,
      signup({ email: uniqueEmail('reg-corrupt'), displayName: 'Valid', photo: valid }, ip),
      'rate_limited',
    );
    expect(limited.message).toMatch(/photo uploads: at most 10 per hour/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Without a photo the address may still register (its registration limit is untouched).
    await call(register, signup({ email: uniqueEmail('reg-corrupt'), displayName: 'No photo' }, ip));
  });

  it('still holds the limit exactly under parallel registrations that all pass the pre-check', async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        send(register, signup({ email: uniqueEmail('reglimit-race'), displayName: 'Race' }, ip)),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, ...Array(6).fill(429)]);
    expect(results.filter((r) => !r.ok && r.error.code === 'rate_limited')).toHaveLength(6);
    for (const res of results.filter((r) => r.status === 429))
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const ledger = await db.selectFrom('registrations').select('id').where('ip', '=', ip).execute();
    expect(ledger).toHaveLength(REGISTRATION_LIMIT);
  });
});

describe('at most one sharp job at a time, with a waiting line of two', () => {
  it('answers a burst of big uploads with 200s and clean 503s, never a 500, and never decodes two at once', async () => {
    const heavy = (await makeJpegOfSize(3 * 1024 * 1024, 95)).toString('base64');
    const users = await Promise.all(Array.from({ length: 10 }, () => registered()));
    // Fresh connections: a pooled one left idle by earlier tests may be closed by the
    // server's keep-alive timeout just as a 4 MB body starts on it (EPIPE, not ours).
    const body = JSON.stringify({ photo: heavy });
    const results = await Promise.all(
      users.map((u) => postOnFreshConnection(pathOf(uploadPhoto), body, { authorization: `Bearer ${u.token}` })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);

    for (const [i, res] of results.entries()) {
      const stored = await db
        .selectFrom('photos')
        .select('id')
        .where('user_id', '=', users[i]?.id ?? '')
        .execute();
      if (res.status === 200) {
        expect(stored).toHaveLength(1);
        continue;
      }
      const { error } = errorEnvelopeSchema.parse(res.body);
      const busy = {
        message: expect.stringMatching(/busy processing other photos/),
        hint: expect.stringMatching(/again in \d+ seconds?/),
      };
      expect(error).toEqual({ code: 'service_unavailable', ...busy });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(stored).toEqual([]);
    }

    // The server's own count: it refused with one job running, and never ran two.
    const busy = serverLog()
      .split('\n')
      .filter((line) => line.includes('"event":"photo_processing_busy"'))
      .map(
        (line) => JSON.parse(line) as { active: number; peak_active: number; concurrency: number; max_waiting: number },
      );
    expect(busy.length).toBeGreaterThanOrEqual(statuses.filter((s) => s === 503).length);
    for (const entry of busy) {
      expect(entry).toMatchObject({ concurrency: 1, max_waiting: 2 });
      expect(entry.peak_active).toBeLessThanOrEqual(1);
    }
    expect(serverLog()).not.toMatch(/"path":"\/api\/v1\/me\/photo\.json","status":500/);

    // A refused upload succeeds when sent again after the rush.
    const refusedUser = users[statuses.indexOf(503)];
    const retry = await postOnFreshConnection(pathOf(uploadPhoto), body, {
      authorization: `Bearer ${refusedUser?.token}`,
    });
    expect(retry.status).toBe(200);
  }, 120_000);
});

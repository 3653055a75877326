// Photos with outside services, on a second stack of its own: MODERATION_PROVIDER=google-vision
// against a local stand-in of Cloud Vision's images:annotate, the Vercel Blob driver
// (BLOB_READ_WRITE_TOKEN) against a local stand-in of the Blob API, and photoURL
// fetching from a local image server whose one port is allowed by the test-only
// PHOTO_FETCH_ALLOW_LOOPBACK_PORTS. Every other loopback port, private and metadata
// address stays refused, including behind redirects.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CompiledQuery } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '@/db';
import { register as registerSpec } from '@/lib/contract/accounts';
import { uploadPhoto } from '@/lib/contract/photos';
import { getMe, getPublicProfile, updateMe } from '@/lib/contract/profiles';
import type { ErrorCode } from '@/lib/core/errors';
import { startBlobApiStandIn, type BlobApiStandIn } from '@/e2e/support/photos/test-blob-api';
import { makeFlatImage, makeImage, makeJpegOfSize, makeJpegWithGps, readGps } from '@/e2e/support/photos/test-images';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { uniqueEmail } from './client';
import { call, refused, type CallInput } from './contract-client';

const VISION_KEY = 'vision-test-key-5f2c9a';
const BLOB_TOKEN = 'vercel_blob_rw_remoteteststore_9d8e7f';

interface Server {
  server: http.Server;
  port: number;
  hits: string[];
}

function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void | Promise<void>,
): Promise<Server> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push(req.url ?? '');
      Promise.resolve(handler(req, res, Buffer.concat(chunks))).catch(() => {
        res.writeHead(500);
        res.end();
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, hits })),
  );
}

// --- the Cloud Vision stand-in: its verdict depends on the image's colour ---------
type Colour = 'red' | 'green' | 'blue' | 'yellow' | 'other';
const PURE: Record<Exclude<Colour, 'other'>, [number, number, number]> = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
};
const ANSWERS: Record<Colour, { adult: string; violence: string; racy: string; faces: number }> = {
  red: { adult: 'VERY_LIKELY', violence: 'UNLIKELY', racy: 'LIKELY', faces: 0 },
  blue: { adult: 'LIKELY', violence: 'LIKELY', racy: 'LIKELY', faces: 2 },
  green: { adult: 'VERY_UNLIKELY', violence: 'VERY_UNLIKELY', racy: 'VERY_UNLIKELY', faces: 1 },
  yellow: { adult: 'VERY_UNLIKELY', violence: 'VERY_UNLIKELY', racy: 'UNLIKELY', faces: 1 },
  other: { adult: 'VERY_UNLIKELY', violence: 'VERY_UNLIKELY', racy: 'VERY_UNLIKELY', faces: 1 },
};

async function colourOf(image: Buffer): Promise<Colour> {
  const { dominant } = await sharp(image).stats();
  for (const [name, [r, g, b]] of Object.entries(PURE) as [Colour, [number, number, number]][]) {
    if (Math.hypot(dominant.r - r, dominant.g - g, dominant.b - b) < 60) return name;
  }
  return 'other';
}

interface VisionCall {
  key: string | null;
  features: string[];
  colour: Colour;
  format: string | undefined;
  width: number | undefined;
  height: number | undefined;
  hasExif: boolean;
}
const visionCalls: VisionCall[] = [];
/** While true, the stand-in answers yellow images with HTTP 500 (a provider outage). */
let yellowOutage = true;

let stack: Stack;
let db: Database;
let vision: Server;
let images: Server;
let internal: Server;
let gpsJpeg: Buffer;
let blobApi: BlobApiStandIn;

const base = () => stack.baseUrl;
type RegisterBody = NonNullable<CallInput<typeof registerSpec>['body']>;

const COMPLETE_BUT_PHOTO = {
  aboutMe: 'Climber.',
  gender: 'male',
  birthday: '1985-05-05',
  location: 'Paris, France',
  activities: ['climbing'],
  availability_text: 'weekday evenings',
} satisfies Partial<RegisterBody>;

const registration = (fields: Partial<RegisterBody> = {}) => ({
  body: { email: uniqueEmail('remote'), displayName: 'Remote Person', ...fields },
  base: base(),
});

async function registered(fields: Partial<RegisterBody> = {}) {
  const res = await call(registerSpec, registration(fields));
  return { id: res.user.id, token: res.auth.token, slug: res.user.slug, body: res };
}

async function upload(token: string, image: Buffer) {
  return call(uploadPhoto, { token, body: { photo: image.toString('base64') }, base: base() });
}

const patchMe = (token: string, body: CallInput<typeof updateMe>['body']) => ({ token, body, base: base() });

const verdictFor = (photoId: string) =>
  waitFor(() => db.selectFrom('photo_moderation').selectAll().where('photo_id', '=', photoId).executeTakeFirst(), {
    what: `a verdict on ${photoId}`,
    timeoutMs: 20_000,
  });

/** Whether the Blob stand-in holds the object behind a public blob URL. */
const blobStored = (url: string) => blobApi.objects.has(new URL(url).pathname.replace(/^\/public\//, ''));

beforeAll(async () => {
  gpsJpeg = await makeJpegWithGps('#808080');
  const bigJpeg = await makeJpegOfSize(5 * 1024 * 1024 + 100_000);
  const flat = { red: await makeFlatImage('png', '#ff0000') };
  const portraitWebp = await makeImage('webp', { width: 900, height: 1200, colour: '#707070' });

  vision = await listen(async (req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const request = JSON.parse(body.toString()) as {
      requests: { image: { content: string }; features: { type: string }[] }[];
    };
    const image = Buffer.from(request.requests[0]!.image.content, 'base64');
    const meta = await sharp(image).metadata();
    const colour = await colourOf(image);
    visionCalls.push({
      key: url.searchParams.get('key'),
      features: request.requests[0]!.features.map((f) => f.type),
      colour,
      format: meta.format,
      width: meta.width,
      height: meta.height,
      hasExif: meta.exif !== undefined,
    });
    if (colour === 'yellow' && yellowOutage) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } }));
      return;
    }
    const answer = ANSWERS[colour];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        responses: [
          {
            safeSearchAnnotation: {
              adult: answer.adult,
              spoof: 'VERY_UNLIKELY',
              medical: 'UNLIKELY',
              violence: answer.violence,
              racy: answer.racy,
            },
            ...(answer.faces > 0
              ? { faceAnnotations: Array.from({ length: answer.faces }, () => ({ detectionConfidence: 0.97 })) }
              : {}),
          },
        ],
      }),
    );
  });

  internal = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(flat.red);
  });

  images = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (type: string, data: Buffer) => {
      res.writeHead(200, { 'content-type': type, 'content-length': data.length });
      res.end(data);
    };
    if (url.pathname === '/gps.jpg') send('image/jpeg', gpsJpeg);
    else if (url.pathname === '/portrait.webp') send('image/webp', portraitWebp);
    else if (url.pathname === '/big.jpg') send('image/jpeg', bigJpeg);
    else if (url.pathname === '/page.html') send('image/jpeg', Buffer.from('<html>not an image</html>'));
    else if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });

  blobApi = await startBlobApiStandIn(BLOB_TOKEN);
  stack = await startStack({
    BLOB_READ_WRITE_TOKEN: BLOB_TOKEN,
    VERCEL_BLOB_API_URL: blobApi.apiUrl,
    MODERATION_PROVIDER: 'google-vision',
    GOOGLE_VISION_API_KEY: VISION_KEY,
    GOOGLE_VISION_ENDPOINT: `http://127.0.0.1:${vision.port}/v1/images:annotate`,
    PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: String(images.port),
    REGISTRATION_LIMIT_PER_HOUR: '100',
  });
  db = createDb(stack.databaseUrl, 2);
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await stack?.stop();
  await blobApi?.close();
  for (const s of [vision, images, internal]) {
    if (!s) continue;
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
}, 60_000);

describe('photoURL, fetched by the server', () => {
  it('at registration: downloads, strips GPS and completes the account', async () => {
    const photoURL = `http://127.0.0.1:${images.port}/gps.jpg`;
    const body = await call(registerSpec, registration({ ...COMPLETE_BUT_PHOTO, photoURL }));
    expect(body.onboarding).toEqual({ complete: true, missing: [], awaiting_person_consent: false });
    const photo = await db
      .selectFrom('photos')
      .selectAll()
      .where('user_id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(photo).toMatchObject({
      source: 'url',
      status: 'active',
      storage: 'vercel-blob',
      original_mime_type: 'image/jpeg',
      width: 200,
      height: 300,
    });
    expect(photo.image_url).toBe(`${blobApi.origin}/public/${photo.image_key}`);
    // Vercel Blob fixes the cache header at upload, before moderation: its one-minute minimum.
    expect(blobApi.objects.get(photo.image_key)).toMatchObject({ contentType: 'image/webp', cacheMaxAge: '60' });
    // The app serves no local copy with the Vercel driver.
    expect((await fetch(`${stack.baseUrl}/blobs/${photo.image_key}`)).status).toBe(404);
    expect(images.hits).toContain('/gps.jpg');

    expect(await readGps(gpsJpeg)).not.toBeNull();
    const served = Buffer.from(await (await fetch(photo.image_url)).arrayBuffer());
    expect(await readGps(served)).toBeNull();
    expect((await sharp(served).metadata()).exif).toBeUndefined();
    // The grey photo passes the stand-in's moderation.
    expect(await verdictFor(photo.id)).toMatchObject({ provider: 'google-vision', action: 'kept' });
  });

  it('in PATCH: replaces the photo with the downloaded one', async () => {
    const user = await registered();
    const first = await upload(user.token, await makeImage('png', { colour: '#808080' }));
    const photoURL = `http://localhost:${images.port}/portrait.webp`;
    const res = await call(updateMe, patchMe(user.token, { photoURL, aboutMe: 'Updated' }));
    expect(res.profile.aboutMe).toBe('Updated');
    expect(res.profile.photoURL).not.toBe(first.photo.photoURL);
    const rows = await db
      .selectFrom('photos')
      .select(['status', 'source', 'width', 'height'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    expect(rows).toEqual([
      { status: 'replaced', source: 'upload', width: 640, height: 480 },
      { status: 'active', source: 'url', width: 900, height: 1200 },
    ]);
  });

  const refusedTargets: [string, () => string][] = [
    ['127.0.0.1 on another port', () => `http://127.0.0.1:${internal.port}/secret.png`],
    ['localhost on another port', () => `http://localhost:${internal.port}/secret.png`],
    ['IPv6 loopback', () => `http://[::1]:${internal.port}/secret.png`],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['the metadata service on the allowed port', () => `http://169.254.169.254:${images.port}/latest/meta-data/`],
    ['a private address on the allowed port', () => `http://10.0.0.1:${images.port}/x.png`],
  ];

  it.each(refusedTargets)('refuses a redirect to %s, without contacting it', async (_name, target) => {
    const before = internal.hits.length;
    const photoURL = `http://127.0.0.1:${images.port}/redirect?to=${encodeURIComponent(target())}`;
    const email = uniqueEmail('ssrf');
    const res = await refused(
      registerSpec,
      { body: { email, displayName: 'Ssrf', photoURL }, base: base() },
      'photo_url_forbidden',
    );
    expect(res.status).toBe(400);
    expect(res.fields).toHaveProperty(['photoURL']);
    expect(internal.hits.length).toBe(before);
    expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
  });

  it.each(refusedTargets.slice(0, 3))('refuses %s directly', async (_name, target) => {
    const user = await registered();
    const before = internal.hits.length;
    const res = await refused(updateMe, patchMe(user.token, { photoURL: target() }), 'photo_url_forbidden');
    expect(res.status).toBe(400);
    expect(internal.hits.length).toBe(before);
  });

  it.each<[string, string, number, ErrorCode]>([
    ['a page that is not an image', '/page.html', 400, 'photo_unsupported_format'],
    ['a missing file', '/missing.jpg', 400, 'photo_fetch_failed'],
    ['a file over 5 MB', '/big.jpg', 413, 'photo_too_large'],
  ])('refuses %s', async (_name, pathname, status, code) => {
    const user = await registered();
    const res = await refused(
      updateMe,
      patchMe(user.token, { photoURL: `http://127.0.0.1:${images.port}${pathname}` }),
      code,
    );
    expect(res.status).toBe(status);
    expect(await db.selectFrom('photos').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });
});

describe('moderation with google-vision', () => {
  it('deletes a VERY_LIKELY adult photo, clears photoURL and takes the profile out of Discover', async () => {
    const user = await registered(COMPLETE_BUT_PHOTO);
    const up = await upload(user.token, await makeFlatImage('png', '#ff0000', 2400, 1800));
    expect(up.onboarding.complete).toBe(true);
    expect(blobStored(up.photo.photoURL)).toBe(true);

    const verdict = await verdictFor(up.photo.id);
    expect(verdict).toMatchObject({
      provider: 'google-vision',
      safety_checked: true,
      adult: 'VERY_LIKELY',
      racy: 'LIKELY',
      violence: 'UNLIKELY',
      face_count: 0,
      action: 'removed',
    });
    expect(verdict.checked_at).toBeInstanceOf(Date);

    const userRow = await db
      .selectFrom('users')
      .select(['photo_url', 'thumbnail_url', 'photo_id', 'onboarding_complete'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(userRow).toEqual({ photo_url: null, thumbnail_url: null, photo_id: null, onboarding_complete: false });
    const me = await call(getMe, { token: user.token, base: base() });
    expect(me.profile).toMatchObject({
      photoURL: null,
      thumbnailURL: null,
      onboarding: { complete: false, missing: ['photo'] },
    });
    const publicView = await call(getPublicProfile, { params: { slug: user.slug }, base: base() });
    expect(publicView.profile).toMatchObject({ discoverable: false, photoURL: null });

    await waitFor(
      async () => {
        const row = await db
          .selectFrom('photos')
          .select(['status', 'moderation', 'blobs_deleted_at'])
          .where('id', '=', up.photo.id)
          .executeTakeFirstOrThrow();
        return row.blobs_deleted_at ? row : undefined;
      },
      { what: 'the rejected blobs to be deleted' },
    );
    expect(blobStored(up.photo.photoURL)).toBe(false);
    expect(blobStored(up.photo.thumbnailURL)).toBe(false);
    const deletion = blobApi.requests.find(
      (r) => r.url.endsWith('/delete') && r.body.toString().includes(up.photo.photoURL),
    );
    expect(JSON.parse(deletion!.body.toString())).toEqual({ urls: [up.photo.photoURL, up.photo.thumbnailURL] });
    expect((await fetch(up.photo.photoURL)).status).toBe(404);
    const photo = await db
      .selectFrom('photos')
      .select(['status', 'moderation'])
      .where('id', '=', up.photo.id)
      .executeTakeFirstOrThrow();
    expect(photo).toEqual({ status: 'rejected', moderation: 'removed' });

    // What Vision saw was the processed image: WEBP, at most 1600 px, no EXIF, with both features and the key.
    const seen = visionCalls.find((c) => c.colour === 'red');
    expect(seen).toMatchObject({
      key: VISION_KEY,
      features: ['SAFE_SEARCH_DETECTION', 'FACE_DETECTION'],
      format: 'webp',
      width: 1600,
      height: 1200,
      hasExif: false,
    });
  });

  it.each([
    ['LIKELY', '#0000ff', { adult: 'LIKELY', violence: 'LIKELY', racy: 'LIKELY', face_count: 2 }],
    [
      'VERY_UNLIKELY',
      '#00ff00',
      { adult: 'VERY_UNLIKELY', violence: 'VERY_UNLIKELY', racy: 'VERY_UNLIKELY', face_count: 1 },
    ],
  ])('keeps a %s photo and records the verdict', async (_name, colour, levels) => {
    const user = await registered(COMPLETE_BUT_PHOTO);
    const up = await upload(user.token, await makeFlatImage('jpeg', colour));
    const verdict = await verdictFor(up.photo.id);
    expect(verdict).toMatchObject({ ...levels, provider: 'google-vision', safety_checked: true, action: 'kept' });
    const userRow = await db
      .selectFrom('users')
      .select(['photo_url', 'onboarding_complete'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(userRow).toEqual({ photo_url: up.photo.photoURL, onboarding_complete: true });
    expect(
      (await db.selectFrom('photos').select('moderation').where('id', '=', up.photo.id).executeTakeFirstOrThrow())
        .moderation,
    ).toBe('kept');
    expect((await fetch(up.photo.photoURL)).status).toBe(200);
  });

  it('retries later when the provider fails, keeping the photo meanwhile', async () => {
    yellowOutage = true;
    const user = await registered(COMPLETE_BUT_PHOTO);
    const up = await upload(user.token, await makeFlatImage('png', '#ffff00'));
    const job = await waitFor(
      async () => {
        const { rows } = await sqlRows<{
          id: string;
          state: string;
          retry_count: number;
          retry_limit: number;
          start_after: Date;
          output: { message?: string };
        }>(
          `select id, state, retry_count, retry_limit, start_after, output from pgboss.job where name = 'photo-moderation' and data->>'photoId' = $1`,
          [up.photo.id],
        );
        return rows[0]?.state === 'retry' ? rows[0] : undefined;
      },
      { what: 'the moderation job to be scheduled for a retry' },
    );
    // The first attempt failed (pg-boss counts retries when it starts one) and 11 more remain.
    expect(job).toMatchObject({
      retry_count: 0,
      retry_limit: 12,
      output: { message: 'Cloud Vision answered HTTP 500' },
    });
    // Backoff: the next attempt is 30-60 s away, not immediate.
    expect(job.start_after.getTime() - Date.now()).toBeGreaterThan(20_000);
    const yellowCalls = visionCalls.filter((c) => c.colour === 'yellow').length;
    expect(yellowCalls).toBe(1);

    // Meanwhile the photo is untouched and no verdict was invented.
    expect(await db.selectFrom('photo_moderation').select('id').where('photo_id', '=', up.photo.id).execute()).toEqual(
      [],
    );
    const userRow = await db
      .selectFrom('users')
      .select(['photo_url', 'onboarding_complete'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(userRow).toEqual({ photo_url: up.photo.photoURL, onboarding_complete: true });
    expect((await fetch(up.photo.photoURL)).status).toBe(200);

    // The provider recovers; bring the retry forward instead of waiting out the backoff.
    yellowOutage = false;
    await sqlRows(`update pgboss.job set start_after = now() where id = $1`, [job.id]);
    const verdict = await verdictFor(up.photo.id);
    expect(verdict).toMatchObject({ provider: 'google-vision', action: 'kept', racy: 'UNLIKELY' });
    expect(visionCalls.filter((c) => c.colour === 'yellow').length).toBe(yellowCalls + 1);
    expect(
      (await db.selectFrom('users').select('photo_url').where('id', '=', user.id).executeTakeFirstOrThrow()).photo_url,
    ).toBe(up.photo.photoURL);
  }, 40_000);

  it('never logs the Vision API key or the Blob token', async () => {
    expect(visionCalls.length).toBeGreaterThan(0);
    const log = fs.readFileSync(path.join(stack.dataDir, 'server.log'), 'utf8');
    expect(log).toContain('photo_moderated');
    expect(log).not.toContain(VISION_KEY);
    expect(log).not.toContain(BLOB_TOKEN);
  });
});

async function sqlRows<T>(text: string, values: unknown[]): Promise<{ rows: T[] }> {
  const result = await db.executeQuery<T>(CompiledQuery.raw(text, values));
  return { rows: result.rows };
}

// Photos against the shared stack: production fetch policy (no loopback allowance),
// the local storage driver and the local (offline) moderation provider.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { getIndex } from '@/lib/contract/meta';
import { uploadPhoto } from '@/lib/contract/photos';
import { getMe, getPublicProfile, ownProfileSchema, publicProfileSchema, updateMe } from '@/lib/contract/profiles';
import type { ErrorCode } from '@/lib/core/errors';
import {
  MIME,
  makeFlatImage,
  makeImage,
  makeJpegOfSize,
  makeJpegWithGps,
  makePixelBomb,
  readGps,
  type TestFormat,
} from '@/e2e/support/photos/test-images';
import { waitFor } from '../support/wait';
import { api, baseUrl, registerUser, testDb, uniqueEmail, updateTokens } from './client';
import { call, type CallInput, pathOf, refused, refusedRaw, send } from './contract-client';

const upload = (token: string, body: CallInput<typeof uploadPhoto>['body']) => call(uploadPhoto, { token, body });
const blobsDir = () => path.join(inject('dataDir'), 'blobs');
const b64 = (bytes: Buffer) => bytes.toString('base64');
const dataUrl = (bytes: Buffer, type: string) => `data:${type};base64,${b64(bytes)}`;

/** Every Discover field but the photo. */
const COMPLETE_BUT_PHOTO = {
  aboutMe: 'Weekend hiker.',
  gender: 'female',
  birthday: '1990-01-01',
  location: 'Berlin, Germany',
  activities: ['hiking'],
  availability_text: 'weekends',
} satisfies Partial<NonNullable<CallInput<typeof register>['body']>>;

async function fetchBlob(url: string) {
  expect(url.startsWith(`${baseUrl()}/blobs/photos/`)).toBe(true);
  const res = await fetch(url);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function photoRows(userId: string) {
  return testDb().selectFrom('photos').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

/** The local (offline) moderation verdict; until it is in, a photo is served with a one-minute cache. */
const moderated = (photoId: string) =>
  waitFor(
    () => testDb().selectFrom('photo_moderation').selectAll().where('photo_id', '=', photoId).executeTakeFirst(),
    { what: 'the moderation verdict' },
  );

function blobFile(url: string): string {
  return path.join(blobsDir(), new URL(url).pathname.replace(/^\/blobs\//, ''));
}

describe('POST /api/v1/me/photo.json', () => {
  it.each([
    ['jpeg', 'bare base64'],
    ['png', 'bare base64'],
    ['webp', 'bare base64'],
    ['jpeg', 'a data URL'],
    ['png', 'a data URL'],
    ['webp', 'a data URL'],
  ] as [TestFormat, string][])('stores a %s sent as %s, processed to WEBP, and serves it', async (format, form) => {
    const user = await registerUser({ agentName: 'PhotoBot' });
    const input = await makeImage(format, { width: 2000, height: 1000 });
    const photo = form === 'a data URL' ? dataUrl(input, MIME[format]) : b64(input);
    const body = await upload(user.token, { photo, mimeType: MIME[format], agentName: 'PhotoBot' });
    expect(body.photo).toMatchObject({
      mimeType: 'image/webp',
      width: 1600,
      height: 800,
      thumbnail: { width: 256, height: 256 },
      source: 'upload',
      status: 'active',
      moderation: 'pending',
    });
    expect(body.onboarding.complete).toBe(false);
    expect(body.onboarding.missing).not.toContain('photo');

    const [row] = await photoRows(user.id);
    expect(row).toMatchObject({
      id: body.photo.id,
      status: 'active',
      storage: 'local',
      original_mime_type: MIME[format],
      original_bytes: input.length,
      original_width: 2000,
      agent_name: 'PhotoBot',
    });
    const userRow = await testDb()
      .selectFrom('users')
      .select(['photo_url', 'thumbnail_url', 'photo_id'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(userRow).toEqual({
      photo_url: body.photo.photoURL,
      thumbnail_url: body.photo.thumbnailURL,
      photo_id: body.photo.id,
    });

    // Passed by moderation (the local provider keeps every photo), it may be cached for a year.
    expect(await moderated(body.photo.id)).toMatchObject({ action: 'kept' });
    const { res: served, bytes } = await fetchBlob(body.photo.photoURL);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(bytes.length).toBe(body.photo.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 1600, height: 800 });
    expect(bytes.equals(input)).toBe(false);
    const { bytes: thumb } = await fetchBlob(body.photo.thumbnailURL);
    expect(await sharp(thumb).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const actions = await testDb()
      .selectFrom('agent_actions')
      .select(['action', 'agent_name'])
      .where('user_id', '=', user.id)
      .execute();
    expect(actions).toContainEqual({ action: 'upload_photo', agent_name: 'PhotoBot' });
  });

  it('accepts a photo without mimeType (the bytes decide)', async () => {
    const user = await registerUser();
    const res = await upload(user.token, { photo: b64(await makeImage('png', { width: 50, height: 40 })) });
    expect(res.photo).toMatchObject({ width: 50, height: 40 });
  });

  it('completes onboarding and makes the profile discoverable', async () => {
    const user = await registerUser(COMPLETE_BUT_PHOTO);
    expect(user.onboarding).toEqual({ complete: false, missing: ['photo'], awaiting_person_consent: false });
    const res = await upload(user.token, { photo: b64(await makeImage('jpeg')), mimeType: 'image/jpeg' });
    expect(res.onboarding).toEqual({ complete: true, missing: [], awaiting_person_consent: false });
    expect(res.next_action_for_user).toMatch(/complete/);
    const stored = await testDb()
      .selectFrom('users')
      .select('onboarding_complete')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.onboarding_complete).toBe(true);

    const me = ownProfileSchema.parse((await call(getMe, { token: user.token })).profile);
    expect(me.photoURL).toBe(res.photo.photoURL);
    expect(me.thumbnailURL).toBe(res.photo.thumbnailURL);
    const pub = publicProfileSchema
      .strict()
      .parse((await call(getPublicProfile, { params: { slug: user.slug } })).profile);
    expect(pub).toMatchObject({ discoverable: true, photoURL: me.photoURL, thumbnailURL: me.thumbnailURL });
  });

  it('auto-rotates and strips EXIF: GPS present in the upload, absent from what is served', async () => {
    const user = await registerUser();
    const jpeg = await makeJpegWithGps();
    expect(await readGps(jpeg)).toMatchObject({ GPSLatitudeRef: 'N' });
    const res = await upload(user.token, { photo: b64(jpeg), mimeType: 'image/jpeg' });
    for (const url of [res.photo.photoURL, res.photo.thumbnailURL]) {
      const { bytes } = await fetchBlob(url);
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(await readGps(bytes)).toBeNull();
      expect(bytes.includes(Buffer.from('TestCam'))).toBe(false);
    }
    expect(res.photo).toMatchObject({ width: 200, height: 300 });
  });

  it('records a local moderation verdict that says it is not a safety check', async () => {
    const user = await registerUser();
    const res = await upload(user.token, { photo: b64(await makeFlatImage('png', '#777777')) });
    const verdict = await waitFor(
      () => testDb().selectFrom('photo_moderation').selectAll().where('photo_id', '=', res.photo.id).executeTakeFirst(),
      { what: 'the moderation verdict' },
    );
    expect(verdict).toMatchObject({
      provider: 'local',
      safety_checked: false,
      adult: null,
      face_count: null,
      action: 'kept',
    });
    expect(verdict.notes).toEqual(
      expect.arrayContaining([expect.stringMatching(/not a safety check/), 'blank: a single flat colour']),
    );
    const [row] = await photoRows(user.id);
    expect(row).toMatchObject({ moderation: 'kept', status: 'active' });
    expect((await fetchBlob(res.photo.photoURL)).res.status).toBe(200);
  });

  it('replaces the previous photo and deletes its files', async () => {
    const user = await registerUser();
    const first = await upload(user.token, { photo: b64(await makeImage('png')) });
    const second = await upload(user.token, { photo: b64(await makeImage('jpeg')) });
    const rows = await photoRows(user.id);
    expect(rows.map((r) => r.status)).toEqual(['replaced', 'active']);
    await waitFor(async () => ((await photoRows(user.id))[0]?.blobs_deleted_at ? true : undefined), {
      what: 'the old blobs to be deleted',
    });
    expect(fs.existsSync(blobFile(first.photo.photoURL))).toBe(false);
    expect(fs.existsSync(blobFile(first.photo.thumbnailURL))).toBe(false);
    expect((await fetch(first.photo.photoURL)).status).toBe(404);
    expect((await fetchBlob(second.photo.photoURL)).res.status).toBe(200);
  });

  it('keeps exactly one current photo under parallel uploads', async () => {
    const user = await registerUser();
    const photos = await Promise.all(['#a00', '#0a0', '#00a', '#aa0'].map((colour) => makeImage('png', { colour })));
    const results = await Promise.all(photos.map((p) => upload(user.token, { photo: b64(p) })));
    expect(results).toHaveLength(4);
    const rows = await photoRows(user.id);
    const active = rows.filter((r) => r.status === 'active');
    expect(active).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'replaced')).toHaveLength(3);
    const userRow = await testDb()
      .selectFrom('users')
      .select(['photo_id', 'photo_url'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(userRow).toEqual({ photo_id: active[0]?.id, photo_url: active[0]?.image_url });
  });

  describe('rejections (nothing is stored)', () => {
    let bomb: Buffer;
    let oversized: Buffer;
    beforeAll(async () => {
      bomb = await makePixelBomb();
      oversized = await makeJpegOfSize(5 * 1024 * 1024 + 64 * 1024);
    });

    const gif = () =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
        .gif()
        .toBuffer();
    const cases: [string, () => Promise<Record<string, unknown>>, number, ErrorCode, string][] = [
      [
        'over 5 MB decoded',
        async () => ({ photo: b64(oversized), mimeType: 'image/jpeg' }),
        413,
        'photo_too_large',
        'photo',
      ],
      ['a GIF', async () => ({ photo: b64(await gif()) }), 400, 'photo_unsupported_format', 'photo'],
      [
        'a GIF declared as PNG',
        async () => ({ photo: b64(await gif()), mimeType: 'image/png' }),
        400,
        'photo_unsupported_format',
        'photo',
      ],
      [
        'text, not an image',
        async () => ({ photo: b64(Buffer.from('just some text, honestly')) }),
        400,
        'photo_unsupported_format',
        'photo',
      ],
      [
        'PNG bytes declared as JPEG',
        async () => ({ photo: b64(await makeImage('png')), mimeType: 'image/jpeg' }),
        400,
        'photo_type_mismatch',
        'photo',
      ],
      [
        'a data URL type that lies',
        async () => ({ photo: dataUrl(await makeImage('webp'), 'image/jpeg') }),
        400,
        'photo_type_mismatch',
        'photo',
      ],
      [
        'a decompression bomb',
        async () => ({ photo: b64(bomb), mimeType: 'image/png' }),
        400,
        'photo_too_many_pixels',
        'photo',
      ],
      ['malformed base64', async () => ({ photo: 'not*base64!!' }), 400, 'photo_invalid', 'photo'],
      [
        'a truncated JPEG',
        async () => ({ photo: b64((await makeImage('jpeg')).subarray(0, 600)) }),
        400,
        'photo_invalid',
        'photo',
      ],
      [
        'a GIF mimeType',
        async () => ({ photo: b64(await makeImage('png')), mimeType: 'image/gif' }),
        400,
        'validation_failed',
        'mimeType',
      ],
      ['no photo', async () => ({ mimeType: 'image/png' }), 400, 'validation_failed', 'photo'],
      [
        'an unknown field',
        async () => ({ photo: b64(await makeImage('png')), caption: 'hi' }),
        400,
        'validation_failed',
        'caption',
      ],
    ];
    it.each(cases)('refuses %s', async (_name, makeBody, status, code, field) => {
      const user = await registerUser();
      // Raw: several of these bodies are ones the contract's types forbid; the answer is read as the error envelope.
      const res = refusedRaw(
        await api('POST', pathOf(uploadPhoto), { token: user.token, body: await makeBody() }),
        code,
      );
      expect(res.status).toBe(status);
      expect(res.hint).toEqual(expect.any(String));
      expect(res.fields).toHaveProperty([field]);
      expect(await photoRows(user.id)).toEqual([]);
      const row = await testDb()
        .selectFrom('users')
        .select(['photo_url', 'photo_id'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ photo_url: null, photo_id: null });
    });

    it.each([
      ['8 MB', 8 * 1024 * 1024],
      ['50 MB', 50 * 1024 * 1024],
    ])('refuses a %s body with 413 payload_too_large', async (_name, size) => {
      const user = await registerUser();
      const rawBody = JSON.stringify({ photo: 'A'.repeat(size) });
      const started = Date.now();
      const res = await api('POST', pathOf(uploadPhoto), {
        token: user.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(refusedRaw(res, 'payload_too_large').status).toBe(413);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await photoRows(user.id)).toEqual([]);
    });

    it('needs a token with photo:write', async () => {
      const photo = b64(await makeImage('png', { width: 8, height: 8 }));
      await refused(uploadPhoto, { body: { photo } }, 'unauthorized');
      const user = await registerUser();
      await updateTokens(user.id, { scopes: ['profile:read', 'profile:write'] });
      await refused(uploadPhoto, { token: user.token, body: { photo } }, 'insufficient_scope');
    });
  });
});

describe('a photo at registration', () => {
  it('makes the account complete on creation', async () => {
    const email = uniqueEmail('withphoto');
    const jpeg = await makeJpegWithGps();
    const body = await call(register, {
      body: {
        email,
        displayName: 'Pic Ture',
        ...COMPLETE_BUT_PHOTO,
        photo: dataUrl(jpeg, 'image/jpeg'),
        photoMimeType: 'image/jpeg',
        agentName: 'RegBot',
      },
    });
    expect(body.onboarding).toEqual({ complete: true, missing: [], awaiting_person_consent: false });
    const user = await testDb()
      .selectFrom('users')
      .selectAll()
      .where('id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(user.onboarding_complete).toBe(true);
    const [photo] = await photoRows(body.user.id);
    expect(photo).toMatchObject({
      source: 'register',
      status: 'active',
      agent_name: 'RegBot',
      width: 200,
      height: 300,
    });
    expect(user.photo_url).toBe(photo?.image_url);
    const { bytes } = await fetchBlob(user.photo_url ?? '');
    expect(await readGps(bytes)).toBeNull();
    const me = await call(getMe, { token: body.auth.token });
    expect(me.profile).toMatchObject({ photoURL: user.photo_url, thumbnailURL: user.thumbnail_url });
  });

  const invalid: [string, () => Promise<Record<string, unknown>>, number, ErrorCode, string][] = [
    [
      'a photo that is not an image',
      async () => ({ photo: b64(Buffer.from('hello')) }),
      400,
      'photo_unsupported_format',
      'photo',
    ],
    [
      'a photo of the wrong declared type',
      async () => ({ photo: b64(await makeImage('png')), photoMimeType: 'image/webp' }),
      400,
      'photo_type_mismatch',
      'photo',
    ],
    ['a malformed photo', async () => ({ photo: '%%%' }), 400, 'photo_invalid', 'photo'],
    [
      'both photo and photoURL',
      async () => ({ photo: b64(await makeImage('png')), photoURL: 'https://example.com/a.jpg' }),
      400,
      'validation_failed',
      'photoURL',
    ],
    [
      'photoURL on loopback',
      async () => ({ photoURL: 'https://127.0.0.1/me.jpg' }),
      400,
      'photo_url_forbidden',
      'photoURL',
    ],
    [
      'photoURL on localhost',
      async () => ({ photoURL: 'https://localhost/me.jpg' }),
      400,
      'photo_url_forbidden',
      'photoURL',
    ],
    [
      'photoURL on IPv6 loopback',
      async () => ({ photoURL: 'https://[::1]/me.jpg' }),
      400,
      'photo_url_forbidden',
      'photoURL',
    ],
    [
      'photoURL on a private address',
      async () => ({ photoURL: 'https://10.0.0.1/me.jpg' }),
      400,
      'photo_url_forbidden',
      'photoURL',
    ],
    [
      'photoURL on the metadata service',
      async () => ({ photoURL: 'https://169.254.169.254/latest/meta-data/' }),
      400,
      'photo_url_forbidden',
      'photoURL',
    ],
    [
      'photoURL over plain http',
      async () => ({ photoURL: `http://127.0.0.1:${new URL(baseUrl()).port}/api/health` }),
      400,
      'photo_url_forbidden',
      'photoURL',
    ],
  ];
  it.each(invalid)('refuses %s and creates nothing', async (_name, makeFields, status, code, field) => {
    const email = uniqueEmail('badphoto');
    // Raw: the table's fields are loosely typed on purpose; the answer is read as the error envelope.
    const res = refusedRaw(
      await api('POST', pathOf(register), { body: { email, displayName: 'Nope', ...(await makeFields()) } }),
      code,
    );
    expect(res.status).toBe(status);
    expect(res.fields).toHaveProperty([field]);
    const users = await testDb().selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toEqual([]);
  });

  it('leaves no files behind when the account cannot be created', async () => {
    const before = new Set(
      fs.existsSync(path.join(blobsDir(), 'photos')) ? fs.readdirSync(path.join(blobsDir(), 'photos')) : [],
    );
    // A taken email is refused before the photo is touched, so only a race reaches the
    // insert with a stored photo: two signups of one new address at once.
    const email = uniqueEmail('twice');
    const [colourA, colourB] = [
      await makeImage('png', { colour: '#abcdef' }),
      await makeImage('png', { colour: '#fedcba' }),
    ];
    const signup = (photo: Buffer) => send(register, { body: { email, displayName: 'Again', photo: b64(photo) } });
    const results = await Promise.all([colourA, colourB].map(signup));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    // Files other tests add meanwhile belong to committed photos; ours must not linger.
    const stray = await waitFor(
      async () => {
        const now = fs
          .readdirSync(path.join(blobsDir(), 'photos'))
          .filter((f) => !before.has(f) && !f.endsWith('.tmp'));
        const rows = await testDb().selectFrom('photos').select(['image_key', 'thumbnail_key']).execute();
        const known = new Set(rows.flatMap((r) => [r.image_key, r.thumbnail_key].map((k) => k.replace('photos/', ''))));
        const unknown = now.filter((f) => !known.has(f));
        return unknown.length === 0 ? unknown : undefined;
      },
      { what: 'no unreferenced files', timeoutMs: 5000 },
    );
    expect(stray).toEqual([]);
  });
});

describe('photoURL in PATCH /api/v1/me.json', () => {
  it.each([
    ['loopback', 'https://127.0.0.1/p.jpg'],
    ['localhost', 'https://localhost/p.jpg'],
    ['IPv6 loopback', 'https://[::1]/p.jpg'],
    ['a private address', 'https://192.168.1.20/p.jpg'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data/iam/'],
    ['our own server over http', `http://127.0.0.1:${new URL(inject('baseUrl')).port}/api/health`],
  ])('refuses %s and changes nothing else either', async (_name, photoURL) => {
    const user = await registerUser({ aboutMe: 'Before' });
    const res = await refused(
      updateMe,
      { token: user.token, body: { aboutMe: 'After', photoURL } },
      'photo_url_forbidden',
    );
    expect(res.fields).toHaveProperty(['photoURL']);
    const row = await testDb()
      .selectFrom('users')
      .select(['about_me', 'photo_url'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ about_me: 'Before', photo_url: null });
  });

  it('clears the photo with null: profile incomplete again, files deleted', async () => {
    const user = await registerUser(COMPLETE_BUT_PHOTO);
    const up = await upload(user.token, { photo: b64(await makeImage('webp')) });
    expect(up.onboarding.complete).toBe(true);
    // Sending back the current URL (agents echo profiles) changes nothing.
    const same = await call(updateMe, { token: user.token, body: { photoURL: up.photo.photoURL } });
    expect(same.profile.photoURL).toBe(up.photo.photoURL);
    expect(await photoRows(user.id)).toHaveLength(1);

    const res = await call(updateMe, { token: user.token, body: { photoURL: null } });
    expect(res.profile).toMatchObject({ photoURL: null, thumbnailURL: null });
    expect(res.onboarding).toEqual({ complete: false, missing: ['photo'], awaiting_person_consent: false });
    const row = await testDb()
      .selectFrom('users')
      .select(['photo_url', 'photo_id', 'thumbnail_url', 'onboarding_complete'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ photo_url: null, photo_id: null, thumbnail_url: null, onboarding_complete: false });
    expect((await photoRows(user.id))[0]?.status).toBe('cleared');
    await waitFor(async () => ((await photoRows(user.id))[0]?.blobs_deleted_at ? true : undefined), {
      what: 'blob deletion',
    });
    expect((await fetch(up.photo.photoURL)).status).toBe(404);
    expect((await call(getPublicProfile, { params: { slug: user.slug } })).profile.discoverable).toBe(false);
  });
});

describe('GET /blobs/{key}', () => {
  it.each([
    '/blobs/..%2f..%2fpackage.json',
    '/blobs/photos/..%2f..%2f..%2fpackage.json',
    '/blobs/photos/%2e%2e/%2e%2e/package.json',
    '/blobs/postgres/PG_VERSION',
    '/blobs/server.log',
    '/blobs/photos/AAAAAAAAAAAAAAAAAAAAAA.webp',
    '/blobs/photos/notarealkey.webp',
  ])('answers 404 for %s', async (pathname) => {
    const res = await fetch(`${baseUrl()}${pathname}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/"name"|PostgreSQL|\d+\n$/);
  });

  it('answers HEAD with the headers of the file', async () => {
    const user = await registerUser();
    const up = await upload(user.token, { photo: b64(await makeImage('png')) });
    await moderated(up.photo.id);
    const res = await fetch(up.photo.photoURL, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('the contract', () => {
  it('lists the photo endpoint', async () => {
    const res = await call(getIndex, {});
    expect(res.endpoints).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/api/v1/me/photo.json', auth: 'photo:write' }),
    );
  });

  it('never writes photo bytes to the log', async () => {
    const user = await registerUser();
    const photo = b64(await makeImage('png', { colour: '#135790' }));
    await upload(user.token, { photo });
    const log = fs.readFileSync(path.join(inject('dataDir'), 'server.log'), 'utf8');
    expect(log).toContain('"path":"/api/v1/me/photo.json"');
    expect(log).not.toContain(photo.slice(100, 160));
  });
});

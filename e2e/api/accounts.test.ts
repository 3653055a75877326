// POST/GET /api/v1/register.json against the real server and database.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { getIndex, getRegisterInstructions } from '@/lib/contract/meta';
import { getMe } from '@/lib/contract/profiles';
import { api, freshIp, testDb, uniqueEmail } from './client';
import { call, refused, send } from './contract-client';

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('POST /api/v1/register.json', () => {
  it('creates an account from email and displayName alone', async () => {
    const email = uniqueEmail('Minimal');
    const body = await call(register, { body: { email, displayName: 'Zoë Müller' } });
    expect(body.user.email).toBe(email);
    expect(body.user.slug).toMatch(/^zoe-muller(-\d{4})?$/);
    expect(body.user.profile_url).toBe(`${inject('baseUrl')}/u/${body.user.slug}`);
    expect(body.auth.token_type).toBe('Bearer');
    expect(body.auth.scopes).toEqual([
      'profile:read',
      'profile:write',
      'photo:write',
      'buddy:read',
      'buddy:write',
      'message:read',
      'message:write',
    ]);
    expect(body.auth.generated_password).toMatch(/^[\w]{5}-[\w]{5}-[\w]{5}-[\w]{5}$/);
    expect(body.auth.mobile_signin_url).toMatch(new RegExp(`^${inject('baseUrl')}/signin/link\\?token=bm_sl_`));
    expect(body.auth.mobile_signin_expires_in_seconds).toBe(3600);
    expect(body.auth.emailed_magic_link).toBe(true);
    expect(body.onboarding).toEqual({
      complete: false,
      missing: ['aboutMe', 'gender', 'birthday', 'location', 'coords', 'activities', 'schedule', 'photo'],
      awaiting_person_consent: false,
    });

    const user = await testDb()
      .selectFrom('users')
      .selectAll()
      .where('id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(user.display_name).toBe('Zoë Müller');
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(body.auth.generated_password).toEqual(expect.any(String));
    expect(user.password_hash).not.toContain(body.auth.generated_password);
    const token = await testDb()
      .selectFrom('access_tokens')
      .selectAll()
      .where('user_id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(token.token_hash.equals(sha256(body.auth.token))).toBe(true);
    expect(token.scopes).toHaveLength(7);
    const link = new URL(body.auth.mobile_signin_url ?? '').searchParams.get('token') ?? '';
    const stored = await testDb()
      .selectFrom('signin_links')
      .selectAll()
      .where('token_hash', '=', sha256(link))
      .executeTakeFirstOrThrow();
    expect(stored.purpose).toBe('mobile');
    expect(stored.used_at).toBeNull();
    expect(stored.expires_at.getTime() - Date.now()).toBeGreaterThan(3500_000);
  });

  it('canonicalizes plain-English fields and reports what it could not use', async () => {
    const body = await call(register, {
      body: {
        email: uniqueEmail(),
        displayName: 'Sam',
        password: 'correct horse battery',
        aboutMe: 'Trail runner, coffee fan.',
        city: 'Portland, OR',
        gender: 'non_binary',
        birthday: '1990-04-02',
        showAgeByDecade: true,
        activities: ['Hiking', 'going to the gym', 'xyzzy plugh'],
        availability_text: 'weekends',
        agentName: 'TestAgent',
        agentSessionId: 'session-1',
      },
    });
    expect(body.auth.generated_password).toBeNull();
    expect(body.onboarding.missing).toEqual(['photo']);
    expect(body.warnings.activities_unmatched).toEqual(['xyzzy plugh']);
    expect(body.warnings.schedule_summary).toMatch(/saturday|weekend/i);

    const me = await call(getMe, { token: body.auth.token });
    expect(me.profile).toMatchObject({
      location: 'Portland, OR',
      homeLocation: 'Portland, OR',
      city: 'Portland, OR',
      coords_source: 'gazetteer',
      activities: ['hiking', 'gym'],
      activities_detail: [
        { id: 'hiking', name: expect.any(String), category: expect.any(String) },
        { id: 'gym', name: expect.any(String), category: expect.any(String) },
      ],
      age: null,
      age_bucket: expect.stringMatching(/^\d0s$/),
      showAgeByDecade: true,
    });
    expect(me.profile.public_location).toMatch(/^Portland, Oregon/);
    expect(me.profile.coords?.latitude).toBeCloseTo(45.52, 0);
    // Weekends = all day Saturday and Sunday.
    expect(me.profile.schedule[5]?.every(Boolean)).toBe(true);
    expect(me.profile.schedule[6]?.every(Boolean)).toBe(true);
    expect(me.profile.schedule[0]?.some(Boolean)).toBe(false);

    const user = await testDb()
      .selectFrom('users')
      .select(['agent_name', 'agent_session_id', 'schedule'])
      .where('id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ agent_name: 'TestAgent', agent_session_id: 'session-1' });
    expect(user.schedule).toBe('0'.repeat(90) + '1'.repeat(36));
    const actions = await testDb()
      .selectFrom('agent_actions')
      .select('action')
      .where('user_id', '=', body.user.id)
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['register']);
  });

  it('treats null optional fields as absent', async () => {
    const res = await call(register, {
      body: { email: uniqueEmail(), displayName: 'Nully', aboutMe: null, coords: null, activities: null, photo: null },
    });
    expect(res.onboarding.missing).toContain('aboutMe');
  });

  const tooLong = (n: number) => 'x'.repeat(n);
  const invalid: [string, Record<string, unknown>, string][] = [
    ['missing email', { email: undefined }, 'email'],
    ['malformed email', { email: 'not-an-email' }, 'email'],
    ['empty displayName', { displayName: '   ' }, 'displayName'],
    ['displayName over 60', { displayName: tooLong(61) }, 'displayName'],
    ['short password', { password: 'short' }, 'password'],
    ['aboutMe over 600', { aboutMe: tooLong(601) }, 'aboutMe'],
    ['city over 80', { city: tooLong(81) }, 'city'],
    ['location over 120', { location: tooLong(121) }, 'location'],
    ['latitude out of range', { coords: { latitude: 91, longitude: 0 } }, 'coords.latitude'],
    ['longitude missing', { coords: { latitude: 10 } }, 'coords.longitude'],
    ['unknown gender', { gender: 'robot' }, 'gender'],
    [
      'younger than 13',
      { birthday: new Date(Date.now() - 12 * 365.25 * 86400_000).toISOString().slice(0, 10) },
      'birthday',
    ],
    ['impossible date', { birthday: '2001-02-30' }, 'birthday'],
    ['wrong date format', { birthday: '04/02/1990' }, 'birthday'],
    ['21 activities', { activities: Array.from({ length: 21 }, (_, i) => `a${i}`) }, 'activities'],
    ['availability_text over 500', { availability_text: tooLong(501) }, 'availability_text'],
    ['schedule of 6 days', { schedule: Array.from({ length: 6 }, () => Array(18).fill(false)) }, 'schedule'],
    ['legacy availability bad period', { availability: [{ day: 'mon', period: 'night' }] }, 'availability.0.period'],
    ['bad slug', { slug: 'No Caps' }, 'slug'],
    ['photoMimeType gif', { photoMimeType: 'image/gif' }, 'photoMimeType'],
    ['photoURL not a URL', { photoURL: 'ftp://x' }, 'photoURL'],
    ['agentName over 60', { agentName: tooLong(61) }, 'agentName'],
    ['agentSessionId over 120', { agentSessionId: tooLong(121) }, 'agentSessionId'],
    ['unknown field', { favouriteColour: 'blue' }, 'favouriteColour'],
  ];
  it.each(invalid)('rejects %s with 400 naming the field', async (_name, patch, field) => {
    const body = { email: uniqueEmail(), displayName: 'Val', ...patch };
    // Raw: many of these bodies break the type on purpose (no email, a made-up gender, an unknown field).
    const res = await api('POST', register.path, { body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toHaveProperty([field]);
    const count = await testDb()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', String(body.email))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('accepts every field exactly at its limit', async () => {
    const thirteenToday = new Date();
    thirteenToday.setUTCFullYear(thirteenToday.getUTCFullYear() - 13);
    const res = await call(register, {
      body: {
        email: uniqueEmail(),
        displayName: tooLong(60),
        password: 'eight888',
        aboutMe: tooLong(600),
        city: tooLong(80),
        location: tooLong(120),
        coords: { latitude: -90, longitude: 180 },
        birthday: thirteenToday.toISOString().slice(0, 10),
        activities: Array.from({ length: 20 }, () => 'hiking'),
        availability_text: `weekends ${' '.repeat(491)}`,
        slug: `a${Date.now()}`.slice(0, 40),
        agentName: tooLong(60),
        agentSessionId: tooLong(120),
      },
    });
    const row = await testDb()
      .selectFrom('users')
      .select(['about_me', 'birthday', 'latitude'])
      .where('id', '=', res.user.id)
      .executeTakeFirstOrThrow();
    expect(row.about_me).toHaveLength(600);
    expect(row.latitude).toBe(-90);
    // Slugs of 3 and 40 characters are fine (the test database is fresh on every run).
    for (const slug of ['a-1', `${'x'.repeat(39)}1`]) {
      const ok = await call(register, { body: { email: uniqueEmail(), displayName: 'S', slug } });
      expect(ok.user.slug).toBe(slug);
    }
    const tooLongSlug = await refused(
      register,
      { body: { email: uniqueEmail(), displayName: 'S', slug: 'x'.repeat(41) } },
      'validation_failed',
    );
    expect(tooLongSlug.fields).toHaveProperty('slug');
  });

  it('trims the email before checking and comparing it', async () => {
    const email = uniqueEmail('trim');
    const first = await call(register, { body: { email: `  ${email} `, displayName: 'Trim' } });
    expect(first.user.email).toBe(email);
    await refused(register, { body: { email: ` ${email.toUpperCase()}`, displayName: 'Trim' } }, 'email_taken');
  });

  it('names every failing field at once', async () => {
    // Raw: a made-up gender breaks the body type on purpose.
    const res = await api('POST', register.path, { body: { email: 'nope', displayName: '', gender: 'x' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['displayName', 'email', 'gender']);
    // In words a person would say, naming the field; the envelope message says them too.
    expect(res.body.error.fields.displayName).toBe('Enter your name');
    expect(res.body.error.fields.email).toBe('Enter a valid email address, like sam@example.com');
    expect(res.body.error.message).toContain('Enter your name.');
    expect(JSON.stringify(res.body.error)).not.toMatch(/expected|>=|Invalid input|received|Too small/);
  });

  it.each([
    ['malformed JSON', '{"email": ', 'application/json', 400, 'invalid_json'],
    ['a form body', 'email=a@b.c', 'application/x-www-form-urlencoded', 415, 'unsupported_media_type'],
    ['an empty body', '', 'application/json', 400, 'validation_failed'],
    ['a JSON array', '[]', 'application/json', 400, 'validation_failed'],
  ])('answers %s with a clear 4xx', async (_name, rawBody, type, status, code) => {
    const res = await api('POST', register.path, { rawBody, headers: { 'content-type': type } });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  it('refuses an oversized body with 413 without reading it all', async () => {
    const rawBody = JSON.stringify({ email: uniqueEmail(), displayName: 'Big', aboutMe: 'x'.repeat(9 * 1024 * 1024) });
    const res = await api('POST', register.path, { rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('refuses a second account for the same email, whatever its case', async () => {
    const email = uniqueEmail('dupe');
    await call(register, { body: { email, displayName: 'One' } });
    const again = await refused(register, { body: { email: email.toUpperCase(), displayName: 'Two' } }, 'email_taken');
    expect(again).toMatchObject({ code: 'email_taken', fields: { email: expect.any(String) } });
    expect(again.hint).toEqual(expect.any(String));
  });

  it('honours a chosen slug and refuses a taken one', async () => {
    const slug = `chosen-${process.pid}-${Date.now() % 100000}`;
    const first = await call(register, { body: { email: uniqueEmail(), displayName: 'A', slug } });
    expect(first.user.slug).toBe(slug);
    await refused(register, { body: { email: uniqueEmail(), displayName: 'B', slug } }, 'slug_taken');
  });

  it('gives people with the same name distinct slugs, even in parallel', async () => {
    const name = `Twin ${process.pid} ${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call(register, { body: { email: uniqueEmail(), displayName: name } })),
    );
    expect(new Set(results.map((r) => r.user.slug)).size).toBe(5);
  });

  it('allows 3 registrations per IP per hour, then 429 with Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) {
      await call(register, { ip, body: { email: uniqueEmail(), displayName: 'Limit' } });
    }
    const res = await refused(register, { ip, body: { email: uniqueEmail(), displayName: 'Limit' } }, 'rate_limited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another address is unaffected.
    await call(register, { body: { email: uniqueEmail(), displayName: 'Other' } });
  });

  it('holds the limit exactly under 20 parallel registrations from one IP', async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => send(register, { ip, body: { email: uniqueEmail(), displayName: 'Race' } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, ...Array(17).fill(429)]);
    const ledger = await testDb()
      .selectFrom('registrations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ip', '=', ip)
      .executeTakeFirstOrThrow();
    expect(Number(ledger.n)).toBe(3);
  });

  it('emails a separate magic link unless emailMagicLink is false (then a notice without one), and never logs secrets', async () => {
    const mailDir = path.join(inject('dataDir'), 'mail');
    const emailed = uniqueEmail('mailme');
    const silent = uniqueEmail('nomail');
    const a = await call(register, { body: { email: emailed, displayName: 'Mail Me', password: 'hunter2hunter2' } });
    const b = await call(register, { body: { email: silent, displayName: 'No Mail', emailMagicLink: false } });
    expect(b.auth.emailed_magic_link).toBe(false);

    const findMail = (address: string) =>
      (fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : [])
        .map((f) => fs.readFileSync(path.join(mailDir, f), 'utf8'))
        .find((m) => m.includes(`To: ${address}`));
    let mail: string | undefined;
    for (let i = 0; i < 40 && !mail; i++) {
      mail = findMail(emailed);
      if (!mail) await new Promise((r) => setTimeout(r, 250));
    }
    expect(mail).toBeDefined();
    const link = /\/signin\/link\?token=(bm_sl_[\w-]+)/.exec(decodeQuotedPrintable(mail!))?.[1];
    expect(link).toBeDefined();
    expect(a.auth.mobile_signin_url).not.toContain(link);
    const stored = await testDb()
      .selectFrom('signin_links')
      .select('purpose')
      .where('token_hash', '=', sha256(link!))
      .executeTakeFirstOrThrow();
    expect(stored.purpose).toBe('email');
    // Without the magic link the address is still told of the account (so its owner can
    // disown it), but gets no sign-in link.
    let notice: string | undefined;
    for (let i = 0; i < 40 && !notice; i++) {
      notice = findMail(silent);
      if (!notice) await new Promise((r) => setTimeout(r, 250));
    }
    expect(notice).toMatch(/^Subject: A Buddy Match account was created with your email address/m);
    expect(decodeQuotedPrintable(notice!)).not.toContain('/signin/link?token=');
    const notMe = /\/signin\/not-me\?token=(bm_nm_[\w-]+)/.exec(decodeQuotedPrintable(notice!))?.[1];
    expect(notMe).toBeDefined();

    const log = fs.readFileSync(path.join(inject('dataDir'), 'server.log'), 'utf8');
    expect(log).toContain('"path":"/api/v1/register.json"');
    expect(log).not.toContain(a.auth.token);
    expect(log).not.toContain('hunter2hunter2');
    expect(log).not.toContain(link!);
    expect(log).not.toContain(notMe!);
  });
});

describe('GET /api/v1/register.json', () => {
  it('returns instructions and a JSON Schema generated from the contract', async () => {
    const res = await call(getRegisterInstructions, {});
    expect(res.method).toBe('POST');
    expect(res.required).toEqual(['email', 'displayName']);
    // The contract types the JSON Schema as an open record; read it as one.
    const schema = res.schema as {
      required: string[];
      additionalProperties: unknown;
      properties: Record<string, { anyOf?: unknown[] }>;
    };
    expect(schema.required).toEqual(['email', 'displayName']);
    expect(schema.properties.displayName).toMatchObject({ type: 'string', maxLength: 60 });
    expect(schema.properties.slug?.anyOf ?? [schema.properties.slug]).toEqual(
      expect.arrayContaining([expect.objectContaining({ pattern: '^[a-z0-9-]{3,40}$' })]),
    );
    expect(schema.additionalProperties).toBe(false);
    expect(res.instructions.length).toBeGreaterThan(3);
  });
});

describe('GET /api/v1/index.json', () => {
  it('lists every endpoint of the contract with absolute URLs', async () => {
    const res = await call(getIndex, {});
    const paths = res.endpoints.map((e) => `${e.method} ${e.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'POST /api/v1/register.json',
        'GET /api/v1/me.json',
        'PATCH /api/v1/me.json',
        'GET /api/v1/users/{slug}/profile.json',
      ]),
    );
    for (const e of res.endpoints) expect(e.url).toBe(`${inject('baseUrl')}${e.path}`);
  });
});

import { describe, expect, it } from 'vitest';
import { defaultContactEmail, defaultMailFrom, loadConfig as load } from './config';
import { appSigninUrl } from './accounts/app-signin';

const loadConfig = (vars: Record<string, string>) => load(vars as NodeJS.ProcessEnv);

describe('photo and moderation settings', () => {
  it('defaults to local storage, the local provider and no loopback allowance', () => {
    const cfg = loadConfig({});
    expect(cfg).toMatchObject({
      blobReadWriteToken: undefined,
      moderationProvider: 'local',
      googleVisionEndpoint: 'https://vision.googleapis.com/v1/images:annotate',
      photoFetchAllowLoopbackPorts: [],
    });
  });

  it('reads the Vercel token, google-vision and the test-only ports', () => {
    const cfg = loadConfig({
      BLOB_READ_WRITE_TOKEN: 'vercel_blob_rw_x_y',
      MODERATION_PROVIDER: 'google-vision',
      GOOGLE_VISION_API_KEY: 'k',
      GOOGLE_VISION_ENDPOINT: 'http://127.0.0.1:9/v1/images:annotate',
      PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: '4010, 4011',
    });
    expect(cfg).toMatchObject({
      blobReadWriteToken: 'vercel_blob_rw_x_y',
      moderationProvider: 'google-vision',
      googleVisionApiKey: 'k',
      googleVisionEndpoint: 'http://127.0.0.1:9/v1/images:annotate',
      photoFetchAllowLoopbackPorts: [4010, 4011],
    });
  });

  it.each([
    [{ MODERATION_PROVIDER: 'rekognition' }, /MODERATION_PROVIDER/],
    [{ MODERATION_PROVIDER: 'google-vision' }, /GOOGLE_VISION_API_KEY/],
    [{ PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: '80,x' }, /PHOTO_FETCH_ALLOW_LOOPBACK_PORTS/],
    [{ PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: '70000' }, /PHOTO_FETCH_ALLOW_LOOPBACK_PORTS/],
  ])('refuses %j at startup', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('what expensive work may cost', () => {
  // Integer settings are read from the environment given to loadConfig, like every other setting.
  it('defaults to one sharp job per core, four waiting per core, and a 32 MiB events cache', () => {
    const cfg = loadConfig({});
    expect(cfg.photoProcessing.concurrency).toBeGreaterThanOrEqual(1);
    expect(cfg.photoProcessing.maxWaiting).toBe(4 * cfg.photoProcessing.concurrency);
    expect(cfg.events.cacheMaxBytes).toBe(32 * 1024 * 1024);
  });

  it('reads PHOTO_PROCESSING_CONCURRENCY, PHOTO_PROCESSING_QUEUE and EVENTS_CACHE_MAX_MB', () => {
    const cfg = loadConfig({
      PHOTO_PROCESSING_CONCURRENCY: '3',
      PHOTO_PROCESSING_QUEUE: '0',
      EVENTS_CACHE_MAX_MB: '8',
    });
    expect(cfg.photoProcessing).toEqual({ concurrency: 3, maxWaiting: 0 });
    expect(cfg.events.cacheMaxBytes).toBe(8 * 1024 * 1024);
  });

  it.each([['0'], ['-1'], ['two']])('refuses PHOTO_PROCESSING_CONCURRENCY=%s at startup', (value) => {
    expect(() => loadConfig({ PHOTO_PROCESSING_CONCURRENCY: value })).toThrow(/PHOTO_PROCESSING_CONCURRENCY/);
  });
});

describe('database connections', () => {
  it('the direct connection (LISTEN, pg-boss, migrations) is DATABASE_URL unless DATABASE_DIRECT_URL names another', () => {
    expect(loadConfig({}).databaseDirectUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://bouncer/db' }).databaseDirectUrl).toBe('postgres://bouncer/db');
    const behindPooler = loadConfig({ DATABASE_URL: 'postgres://bouncer/db', DATABASE_DIRECT_URL: 'postgres://pg/db' });
    expect(behindPooler).toMatchObject({ databaseUrl: 'postgres://bouncer/db', databaseDirectUrl: 'postgres://pg/db' });
  });

  it('DATABASE_READ_URLS lists the replicas (none by default)', () => {
    expect(loadConfig({}).databaseReadUrls).toEqual([]);
    expect(loadConfig({ DATABASE_READ_URLS: 'postgres://r1/db, postgres://r2/db' }).databaseReadUrls).toEqual([
      'postgres://r1/db',
      'postgres://r2/db',
    ]);
  });

  it('refuses a direct URL without DATABASE_URL (the embedded database would be used for the rest)', () => {
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://pg/db' })).toThrow(/DATABASE_DIRECT_URL needs/);
  });
});

describe('APP_LINK_URL (issue 31 §1)', () => {
  it('offers no app unless one is named, and takes an app scheme or an https universal link', () => {
    expect(loadConfig({}).appLinkUrl).toBeUndefined();
    expect(loadConfig({ APP_LINK_URL: 'buddymatch://signin' }).appLinkUrl).toBe('buddymatch://signin');
    expect(loadConfig({ APP_LINK_URL: 'https://app.example.com/signin' }).appLinkUrl).toBe(
      'https://app.example.com/signin',
    );
    expect(appSigninUrl('buddymatch://signin', 'bm_sl_a+b')).toBe('buddymatch://signin?token=bm_sl_a%2Bb');
  });

  it('refuses what is not an app link', () => {
    for (const bad of ['signin', 'javascript:alert(1)', 'http://app.example.com/signin', 'data:text/html,x'])
      expect(() => loadConfig({ APP_LINK_URL: bad }), bad).toThrow(/APP_LINK_URL/);
  });
});

describe('REQUIRE_PERSON_CONSENT (issue 41 §2)', () => {
  it('is off unless switched on, and refuses a value that is neither', () => {
    expect(loadConfig({}).requirePersonConsent).toBe(false);
    for (const on of ['1', 'true', 'on', ' ON '])
      expect(loadConfig({ REQUIRE_PERSON_CONSENT: on }).requirePersonConsent).toBe(true);
    for (const off of ['', '0', 'false', 'off'])
      expect(loadConfig({ REQUIRE_PERSON_CONSENT: off }).requirePersonConsent).toBe(false);
    for (const bad of ['yes', '2', 'enabled'])
      expect(() => loadConfig({ REQUIRE_PERSON_CONSENT: bad }), bad).toThrow(/REQUIRE_PERSON_CONSENT/);
  });
});

describe('MAIL_FROM (issue 46 §5)', () => {
  it('defaults to no-reply at the site’s host, and to no-reply@localhost while the site has no name', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://buddy.example.org' }).mailFrom).toBe('no-reply@buddy.example.org');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://buddy.example.org', MAIL_FROM: 'hi@example.org' }).mailFrom).toBe(
      'hi@example.org',
    );
    // RUNTIME.md's default, where no name is known.
    expect(loadConfig({}).mailFrom).toBe('no-reply@localhost');
    for (const base of ['http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost:3000'])
      expect(defaultMailFrom(base)).toBe('no-reply@localhost');
  });
});

describe('CONTACT_EMAIL (issue 47)', () => {
  it('defaults to contact at the site’s host, as MAIL_FROM does, and is the operator’s when set', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://buddy.example.org' }).contactEmail).toBe('contact@buddy.example.org');
    expect(
      loadConfig({ PUBLIC_BASE_URL: 'https://buddy.example.org', CONTACT_EMAIL: ' help@example.org ' }).contactEmail,
    ).toBe('help@example.org');
    expect(loadConfig({}).contactEmail).toBe('contact@localhost');
    expect(defaultContactEmail('http://127.0.0.1:3000')).toBe('contact@localhost');
  });
});

describe('REVIEW_ACCOUNT (issue 47)', () => {
  it.each([
    { value: undefined, base: undefined, email: null },
    { value: '0', base: undefined, email: null },
    { value: 'off', base: 'https://buddy.example.com', email: null },
    { value: '1', base: 'https://buddy.example.com', email: 'review@buddy.example.com' },
    { value: 'on', base: undefined, email: 'review@localhost' },
    { value: '1', base: 'http://127.0.0.1:3000', email: 'review@localhost' },
    { value: 'Apps-Review@Example.org', base: undefined, email: 'apps-review@example.org' },
  ])('$value with PUBLIC_BASE_URL $base signs in as $email', ({ value, base, email }) => {
    const vars: Record<string, string> = {};
    if (value !== undefined) vars.REVIEW_ACCOUNT = value;
    if (base !== undefined) vars.PUBLIC_BASE_URL = base;
    expect(loadConfig(vars).reviewAccount).toEqual(email === null ? null : { email });
  });

  it.each(['yes', 'review@', 'a b@example.com'])('stops the server on %j', (value) => {
    expect(() => loadConfig({ REVIEW_ACCOUNT: value })).toThrow(/REVIEW_ACCOUNT/);
  });
});

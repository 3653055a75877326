// GET /api/v1/events.json against the real server: the built-in directory (the shared
// stack), the EVENTS_FEEDS refresh job and proxy mode (stacks of their own, with a
// local stand-in for the upstream and for the feeds).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { dereference } from '@readme/openapi-parser';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Database } from '@/db';
import { listEvents, type EventItem } from '@/lib/contract/events';
import { maintainSample } from '@/lib/events/import';
import { startStack, type Stack } from '../support/stack';
import { api, freshIp, testDb } from './client';
import { call, refused, send } from './contract-client';

const root = path.resolve(import.meta.dirname, '../..');
const DAY = 86_400_000;
const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const at = (days: number, hour = 0) => new Date(today.getTime() + days * DAY + hour * 3_600_000);
const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const dateStamp = (date: Date) => date.toISOString().slice(0, 10).replace(/-/g, '');
const ymd = (date: Date) => date.toISOString().slice(0, 10);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'events-e2e-'));

function vevent(lines: Record<string, string>): string {
  return [
    'BEGIN:VEVENT',
    `DTSTAMP:${stamp(today)}`,
    ...Object.entries(lines).map(([k, v]) => `${k}:${v}`),
    'END:VEVENT',
  ].join('\r\n');
}
function vcalendar(...events: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//e2e//EN', ...events, 'END:VCALENDAR'].join('\r\n');
}

/** Runs `npm run events:import` (the script itself) against the shared stack's database. */
function importCli(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/events-import.ts'), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const titles = (events: readonly EventItem[]) => events.map((e) => e.title);
/** The feed for a query written as a URL's (the tests read better that way); must answer 200, parsed by the contract. */
async function feed(query: string) {
  return call(listEvents, { query: Object.fromEntries(new URLSearchParams(query)) });
}

// ---------------------------------------------------------------------------
// The test calendar (dates relative to today)

const SOURCE = 'e2e-ics';
const CLIMB = 'climb@e2e';
const CALENDAR = {
  climb: [
    vevent({
      UID: CLIMB,
      DTSTART: stamp(at(2, 18)),
      DTEND: stamp(at(2, 20)),
      RRULE: 'FREQ=WEEKLY;COUNT=5',
      EXDATE: stamp(at(9, 18)),
      SUMMARY: 'Weekly bouldering meetup',
      DESCRIPTION: 'All levels\\, shoes to rent.',
      LOCATION: 'Example Boulder Hall\\, Revaler Str. 99\\, 10245 Berlin\\, Germany',
      CATEGORIES: 'Climbing',
    }),
    vevent({
      UID: CLIMB,
      'RECURRENCE-ID': stamp(at(16, 18)),
      DTSTART: stamp(at(16, 18)),
      SUMMARY: 'Weekly bouldering meetup',
      STATUS: 'CANCELLED',
    }),
  ].join('\r\n'),
  yoga: vevent({
    UID: 'yoga@e2e',
    DTSTART: stamp(at(3, 20)),
    DTEND: stamp(at(3, 21)),
    SUMMARY: 'Sunset yoga in the park',
    LOCATION: 'Laurelhurst Park\\, Portland\\, OR',
    GEO: '45.5216;-122.6250',
  }),
  picnic: vevent({
    UID: 'picnic@e2e',
    DTSTART: stamp(at(5, 12)),
    SUMMARY: 'Cancelled picnic',
    LOCATION: 'Berlin',
    STATUS: 'CANCELLED',
  }),
  games: vevent({
    UID: 'games@e2e',
    DTSTART: stamp(at(10, 19)),
    DTEND: stamp(at(10, 22)),
    SUMMARY: 'Board game night',
    LOCATION: 'The Example Arms\\, London\\, UK',
  }),
  market: vevent({
    UID: 'market@e2e',
    'DTSTART;VALUE=DATE': dateStamp(at(20)),
    SUMMARY: 'Winter farmers market',
    DESCRIPTION: 'Cider and cheese.',
    LOCATION: 'Monument Square\\, Portland\\, Maine',
  }),
  trail: vevent({
    UID: 'trail@e2e',
    DTSTART: stamp(at(40, 17)),
    SUMMARY: 'Trail running club',
    LOCATION: 'Forest Park\\, Portland\\, OR',
  }),
  coffee: vevent({
    UID: 'coffee@e2e',
    DTSTART: stamp(new Date(Date.now() - 4 * 3_600_000)),
    DTEND: stamp(new Date(Date.now() - 2 * 3_600_000)),
    SUMMARY: 'Morning coffee meetup',
    LOCATION: 'Berlin',
  }),
};
// Default order (by start): climb +2, yoga +3, games +10, market +20, climb +23, climb +30, trail +40.
const BY_START = [
  'Weekly bouldering meetup',
  'Sunset yoga in the park',
  'Board game night',
  'Winter farmers market',
  'Weekly bouldering meetup',
  'Weekly bouldering meetup',
  'Trail running club',
];

describe('built-in directory: a fresh start', () => {
  it('serves the labelled sample calendar', async () => {
    const body = await feed('');
    expect(body.total).toBeGreaterThan(20);
    expect(body.events).toHaveLength(40);
    expect(body.events.every((e) => e.source === 'sample' && e.title.startsWith('[Sample] '))).toBe(true);
    expect(new Set(body.events.map((e) => e.city)).size).toBeGreaterThanOrEqual(4);
    expect(body.scraped_at_max).not.toBeNull();
    // Only events not yet over, soonest first.
    expect(body.events.every((e) => new Date(e.end) >= new Date(Date.now() - 60_000))).toBe(true);
    expect(body.events.map((e) => e.start)).toEqual(body.events.map((e) => e.start).sort());
    const stored = await testDb()
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', 'sample')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBeGreaterThanOrEqual(body.total);
  });

  it('sets Cache-Control and an ETag, and answers If-None-Match with 304', async () => {
    const first = await send(listEvents, { query: { city: 'Berlin' } });
    expect(first.ok).toBe(true);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=30');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    // Raw: a 304 has no body for the contract to parse.
    const again = await api('GET', `${listEvents.path}?city=Berlin`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(etag);
    await call(listEvents, { query: { city: 'Berlin' }, headers: { 'if-none-match': '"other"' } });
  });
});

describe('query validation', () => {
  it.each([
    ['limit=0', 'limit', 'must be at least 1'],
    ['limit=101', 'limit', 'must be at most 100'],
    ['limit=ten', 'limit', 'must be an integer'],
    ['offset=-1', 'offset', 'must be at least 0'],
    [
      'activities=hiking,hikking',
      'activities',
      'unknown activity: "hikking" (did you mean hiking, road_cycling, backpacking?); plain English works ("bouldering", "board games"), see list_activities or /api/v1/activities.json',
    ],
    ['date_from=2026-02-30', 'date_from', 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with offset'],
    ['date_from=2026-03-10&date_to=2026-03-01', 'date_to', 'must not be before date_from'],
    ['bbox=13,52,14', 'bbox', 'must be minLon,minLat,maxLon,maxLat in degrees'],
    ['sort=price', 'sort', 'Sort must be one of: start, distance'],
    ['near=north', 'near', 'must be lat,lon in degrees'],
    [`q=${'x'.repeat(201)}`, 'q', 'must be at most 200 characters'],
    ['sort=distance', 'near', 'required for sort=distance unless bbox or a known city is given'],
  ])('answers %s with 400 naming %s', async (query, field, message) => {
    const error = await refused(
      listEvents,
      { query: Object.fromEntries(new URLSearchParams(query)) },
      'validation_failed',
    );
    expect(error.fields).toEqual({ [field]: message });
    expect(error.headers.get('cache-control')).toBe('no-store');
  });

  it('answers unknown parameters in built-in mode, with a warning naming each and a did-you-mean', async () => {
    // Raw: parameters the contract does not name, on purpose.
    const res = await api('GET', `${listEvents.path}?limit=1&lang=de&activity=climbing`);
    expect(res.status).toBe(200);
    const body = listEvents.response.parse(res.body);
    expect(body.events).toHaveLength(1);
    expect(body.warnings).toEqual({
      unknown_parameters: { lang: 'unknown parameter', activity: 'unknown parameter (did you mean activities?)' },
    });
    // Documented parameters alone carry no warnings.
    expect((await feed('limit=1')).warnings).toBeUndefined();
  });
});

describe('q on the built-in directory understands activities (issue 36)', () => {
  const source = 'e2e-activities-q';
  const row = (uid: string, title: string, extra: { activity_ids?: string[]; categories?: string[] }) => ({
    source,
    uid,
    series_uid: uid,
    title,
    description: null,
    starts_at: at(6, 19),
    ends_at: at(6, 22),
    timezone: 'Etc/UTC',
    local_date: ymd(at(6)),
    venue_name: null,
    venue_address: null,
    city: null,
    region: null,
    country: null,
    latitude: null,
    longitude: null,
    url: null,
    scraped_at: today,
    ...extra,
  });
  beforeAll(async () => {
    await testDb()
      .insertInto('events')
      .values([
        // The catalog lists "catan" as an alias of Board Games.
        row('catan', 'Catan night', {}),
        // Only the event's own categories say it is board games.
        row('categories', 'Strategy evening', { categories: ['Board games'] }),
        // Only the directory's activity tag does.
        row('tagged', 'Tuesday club', { activity_ids: ['board_games'] }),
        row('bouldering', 'Bouldering after work', {}),
        row('quiz', 'Thursdays at the Arms', { categories: ['Trivia'] }),
      ])
      .execute();
  });
  afterAll(async () => {
    await testDb().deleteFrom('events').where('source', '=', source).execute();
  });

  it.each([
    ['board games', ['Catan night', 'Strategy evening', 'Tuesday club']],
    ['boardgame', ['Catan night', 'Strategy evening', 'Tuesday club']],
    ['climbing', ['Bouldering after work']],
    ['pub quiz', ['Thursdays at the Arms']],
    ['strategy', ['Strategy evening']],
    ['chess', []],
  ])('q=%s finds %j', async (q, expected) => {
    const res = await feed(new URLSearchParams({ sources: source, q }).toString());
    expect(titles(res.events).sort()).toEqual([...expected].sort());
  });
});

describe('rate limit per client address', () => {
  // EVENTS_LIMIT_PER_MINUTE, left at its default on the shared stack.
  const LIMIT = 120;

  it('answers 429 with Retry-After once one address has used its calls of the minute, before parsing anything', async () => {
    const ip = freshIp();
    for (let batch = 0; batch < LIMIT / 20; batch++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => send(listEvents, { query: { limit: 1 }, ip })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    }
    const {
      status: _status,
      headers,
      ...error
    } = await refused(listEvents, { query: { limit: 1 }, ip }, 'rate_limited');
    expect(error).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(
        new RegExp(
          `^Too many events feed requests from your network: at most ${LIMIT} per minute\\. Try again in \\d+ seconds?\\.$`,
        ),
      ),
      hint: expect.any(String),
    });
    const retryAfter = Number(headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(headers.get('cache-control')).toBe('no-store');
    // Counted before the query is parsed: an invalid one is refused the same way, not a 400.
    await refused(listEvents, { query: { limit: 0, bbox: '1,2' }, ip }, 'rate_limited');
    // Other addresses are not affected.
    await call(listEvents, { query: { limit: 1 } });
  });

  it('documents the limit in OpenAPI', async () => {
    // Error responses are shared components (issue 14 §5): read them through their $refs.
    const doc = (await dereference((await api('GET', '/.well-known/openapi.json')).body)) as Record<string, any>;
    const responses = doc.paths['/api/v1/events.json'].get.responses;
    expect(responses['429']).toBeDefined();
    expect(responses['429'].headers).toHaveProperty(['Retry-After']);
    expect(responses['429'].headers).toHaveProperty(['RateLimit']);
    expect(responses['200'].headers).toHaveProperty(['RateLimit-Policy']);
  });
});

describe('built-in directory: importing an iCalendar feed', () => {
  const file = path.join(tmp, 'club.ics');
  let climbIds: string[] = [];

  beforeAll(async () => {
    fs.writeFileSync(file, vcalendar(...Object.values(CALENDAR)));
    const run = await importCli(file, '--source', SOURCE);
    expect(run.output).toContain(
      `Imported 8 event occurrence(s) from "${SOURCE}"; removed 0 no longer listed, left out 2 cancelled; removed the`,
    );
    expect(run.code).toBe(0);
  }, 60_000);

  it('stores each occurrence by source and uid, without excluded or cancelled ones', async () => {
    const rows = await testDb()
      .selectFrom('events')
      .selectAll()
      .where('source', '=', SOURCE)
      .orderBy('starts_at')
      .execute();
    expect(rows.map((r) => r.uid)).toEqual([
      'coffee@e2e',
      `${CLIMB}#${at(2, 18).toISOString()}`,
      'yoga@e2e',
      'games@e2e',
      'market@e2e',
      `${CLIMB}#${at(23, 18).toISOString()}`,
      `${CLIMB}#${at(30, 18).toISOString()}`,
      'trail@e2e',
    ]);
    const climb = rows.find((r) => r.series_uid === CLIMB)!;
    expect(climb).toMatchObject({
      title: 'Weekly bouldering meetup',
      venue_name: 'Example Boulder Hall',
      city: 'Berlin',
      country: 'DE',
      activity_ids: ['rock_climbing'],
      categories: ['Climbing'],
    });
    const market = rows.find((r) => r.uid === 'market@e2e')!;
    expect(market).toMatchObject({
      all_day: true,
      local_date: ymd(at(20)),
      city: 'Portland',
      region: 'Maine',
      activity_ids: ['farmers_markets'],
    });
    expect(rows.find((r) => r.uid === 'yoga@e2e')).toMatchObject({
      latitude: 45.5216,
      longitude: -122.625,
      region: 'Oregon',
      activity_ids: ['yoga'],
    });
    expect(new Set(rows.map((r) => new Date(r.scraped_at).toISOString())).size).toBe(1);
    climbIds = rows.filter((r) => r.series_uid === CLIMB).map((r) => r.id);
    // A real feed replaces the sample.
    const sample = await testDb().selectFrom('events').select('id').where('source', '=', 'sample').execute();
    expect(sample).toEqual([]);
  });

  it('lists upcoming events by start time with total', async () => {
    const res = await feed(`sources=${SOURCE}`);
    expect(titles(res.events)).toEqual(BY_START);
    expect(res.total).toBe(7);
    const first = res.events[0]!;
    expect(first).toMatchObject({
      uid: `${CLIMB}#${at(2, 18).toISOString()}`,
      source: SOURCE,
      start: at(2, 18).toISOString(),
      end: at(2, 20).toISOString(),
      timezone: 'Etc/UTC',
      venue_name: 'Example Boulder Hall',
      venue_address: 'Revaler Str. 99, 10245 Berlin, Germany',
      city: 'Berlin',
      country: 'DE',
      activities: ['rock_climbing'],
      distance_km: null,
      url: null,
    });
    expect(first.id).toBe(climbIds[0]);
    const rows = await testDb().selectFrom('events').select(['scraped_at']).where('source', '=', SOURCE).execute();
    expect(res.scraped_at_max).toBe(new Date(rows[0]!.scraped_at).toISOString());
  });

  it('pages with limit and offset, total counting every page', async () => {
    const pages = [];
    for (const offset of [0, 3, 6, 9]) {
      const res = await feed(`sources=${SOURCE}&limit=3&offset=${offset}`);
      expect(res.total).toBe(7);
      pages.push(...titles(res.events));
    }
    expect(pages).toEqual(BY_START);
  });

  it.each([
    ['q=bouldering', ['Weekly bouldering meetup', 'Weekly bouldering meetup', 'Weekly bouldering meetup']],
    ['q="board game"', ['Board game night']],
    ['q=cider', ['Winter farmers market']],
    ['q=yoga -sunset', []],
    ['q=Portland market', ['Winter farmers market']],
    ['city=Portland', ['Sunset yoga in the park', 'Winter farmers market', 'Trail running club']],
    ['city=Portland, OR', ['Sunset yoga in the park', 'Trail running club']],
    ['city=portland, maine', ['Winter farmers market']],
    ['region=OR', ['Sunset yoga in the park', 'Trail running club']],
    ['region=Germany', ['Weekly bouldering meetup', 'Weekly bouldering meetup', 'Weekly bouldering meetup']],
    ['region=gb', ['Board game night']],
    ['activities=rock_climbing', ['Weekly bouldering meetup', 'Weekly bouldering meetup', 'Weekly bouldering meetup']],
    ['activities=bouldering', ['Weekly bouldering meetup', 'Weekly bouldering meetup', 'Weekly bouldering meetup']],
    ['activities=yoga,board_games', ['Sunset yoga in the park', 'Board game night']],
    [`date_from=${ymd(at(9))}&date_to=${ymd(at(20))}`, ['Board game night', 'Winter farmers market']],
    [
      `date_from=${at(23, 18).toISOString()}`,
      ['Weekly bouldering meetup', 'Weekly bouldering meetup', 'Trail running club'],
    ],
    [`date_to=${ymd(at(3))}`, ['Weekly bouldering meetup', 'Sunset yoga in the park']],
    ['bbox=-123,45,-122,46', ['Sunset yoga in the park', 'Trail running club']],
    ['bbox=-10,40,20,60&q=game', ['Board game night']],
    ['sources=nope', []],
  ])('filters by %s', async (query, expected) => {
    // A repeated parameter counts once, the last one: sources=nope replaces the test source.
    const res = await feed(new URLSearchParams(`sources=${SOURCE}&${query}`).toString());
    expect(titles(res.events)).toEqual(expected);
    expect(res.total).toBe(expected.length);
  });

  it('shows events that are already over only when date_from asks for them', async () => {
    expect(titles((await feed(`sources=${SOURCE}&q=coffee`)).events)).toEqual([]);
    const res = await feed(`sources=${SOURCE}&q=coffee&date_from=${ymd(at(-1))}`);
    expect(titles(res.events)).toEqual(['Morning coffee meetup']);
  });

  it('sorts by distance from near, with distance_km', async () => {
    const res = await feed(`sources=${SOURCE}&sort=distance&near=51.5074,-0.1278`);
    expect(titles(res.events)).toEqual([
      'Board game night',
      'Weekly bouldering meetup',
      'Weekly bouldering meetup',
      'Weekly bouldering meetup',
      'Winter farmers market',
      'Sunset yoga in the park',
      'Trail running club',
    ]);
    const km = res.events.map((e) => e.distance_km!);
    expect(km[0]).toBeLessThan(5);
    expect(km[1]).toBeGreaterThan(900);
    expect(km[1]).toBeLessThan(960);
    expect([...km].sort((a, b) => a - b)).toEqual(km);
  });

  it('measures distance from the city when sorting without near', async () => {
    const res = await feed(new URLSearchParams({ sources: SOURCE, sort: 'distance', city: 'Portland, OR' }).toString());
    // The trail event sits at the city's centre point; the yoga one has its own GEO a few km east.
    expect(titles(res.events)).toEqual(['Trail running club', 'Sunset yoga in the park']);
    expect(res.events[0]!.distance_km).toBe(0);
    expect(res.events[1]!.distance_km).toBeGreaterThan(2);
    expect(res.events[1]!.distance_km).toBeLessThan(10);
  });

  it('re-imports: keeps ids, removes events gone from the feed and newly cancelled ones', async () => {
    const cancelledYoga = CALENDAR.yoga.replace('END:VEVENT', 'STATUS:CANCELLED\r\nEND:VEVENT');
    const { games: _dropped, yoga: _yoga, ...rest } = CALENDAR;
    fs.writeFileSync(file, vcalendar(...Object.values(rest), cancelledYoga));
    const run = await importCli(file, '--source', SOURCE);
    expect(run.output).toContain(
      `Imported 6 event occurrence(s) from "${SOURCE}"; removed 2 no longer listed, left out 3 cancelled`,
    );
    expect(run.code).toBe(0);
    const rows = await testDb()
      .selectFrom('events')
      .select(['id', 'uid', 'series_uid'])
      .where('source', '=', SOURCE)
      .execute();
    expect(rows.map((r) => r.uid)).not.toContain('games@e2e');
    expect(rows.map((r) => r.uid)).not.toContain('yoga@e2e');
    expect(
      rows
        .filter((r) => r.series_uid === CLIMB)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...climbIds].sort());
    expect(titles((await feed(`sources=${SOURCE}`)).events)).toEqual(
      BY_START.filter((t) => t !== 'Board game night' && t !== 'Sunset yoga in the park'),
    );
  }, 60_000);

  it('reports a file that is not a feed and changes nothing', async () => {
    const bad = path.join(tmp, 'notes.txt');
    fs.writeFileSync(bad, 'hello');
    const run = await importCli(bad, '--source', SOURCE);
    expect(run.code).toBe(1);
    expect(run.output).toContain('Import failed: The feed is neither iCalendar (BEGIN:VCALENDAR) nor JSON');
    const count = await testDb()
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', SOURCE)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(6);
  }, 60_000);
});

describe('built-in directory: the sample calendar', () => {
  it('fills only an otherwise empty directory, and EVENTS_SAMPLE=0 removes it', async () => {
    const count = async (source: string) =>
      Number(
        (
          await testDb()
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('source', '=', source)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await maintainSample(testDb(), { enabled: true, horizonDays: 90 })).toEqual({
      action: 'removed',
      events: 0,
    });
    expect(await count('sample')).toBe(0);
    await testDb().deleteFrom('events').execute();
    const imported = await maintainSample(testDb(), { enabled: true, horizonDays: 90 });
    expect(imported.action).toBe('imported');
    expect(await count('sample')).toBe(imported.events);
    expect((await feed('q=bouldering')).events[0]!.title).toBe('[Sample] Bouldering after work');
    // Issue 36: a query naming a catalog activity finds its aliases too ("bouldering" is Rock Climbing).
    expect(titles((await feed('q=climbing')).events)).toContain('[Sample] Bouldering after work');
    expect(titles((await feed('q=rock climbing')).events)).toContain('[Sample] Bouldering after work');
    expect(await maintainSample(testDb(), { enabled: false, horizonDays: 90 })).toEqual({
      action: 'removed',
      events: imported.events,
    });
    expect((await feed('')).total).toBe(0);
  }, 60_000);
});

// ---------------------------------------------------------------------------
// EVENTS_FEEDS: the refresh job (its own stack, the sample turned off)

describe('built-in directory: the EVENTS_FEEDS refresh job', () => {
  let feedServer: http.Server;
  let stack: Stack;
  let db: Database;
  let clubCalendar = vcalendar(CALENDAR.yoga, CALENDAR.games);
  const jsonFile = path.join(tmp, 'city-events.json');

  beforeAll(async () => {
    feedServer = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.end(clubCalendar);
    });
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    fs.writeFileSync(
      jsonFile,
      JSON.stringify({
        events: [
          {
            uid: 'j1',
            title: 'Riverside 10k',
            start: at(6, 8).toISOString(),
            city: 'Hamburg',
            country: 'DE',
            activities: ['running'],
          },
          { uid: 'j2', title: 'Called off', start: at(7, 8).toISOString(), city: 'Hamburg', status: 'cancelled' },
        ],
      }),
    );
    const port = (feedServer.address() as AddressInfo).port;
    stack = await startStack({
      EVENTS_FEEDS: `club=http://127.0.0.1:${port}/club.ics ${jsonFile}`,
      EVENTS_SAMPLE: '0',
    });
    db = createDb(stack.databaseUrl, 2);
  }, 150_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
    feedServer?.closeAllConnections();
    feedServer?.close();
  });

  const uidsOf = async (source: string) =>
    (await db.selectFrom('events').select('uid').where('source', '=', source).orderBy('uid').execute()).map(
      (r) => r.uid,
    );

  it('imports every feed at start and schedules the refresh', async () => {
    // The server loads the gazetteer for its first import: allow for a slow machine.
    await expect.poll(() => uidsOf('club'), { timeout: 45_000 }).toEqual(['games@e2e', 'yoga@e2e']);
    await expect.poll(() => uidsOf('city-events'), { timeout: 20_000 }).toEqual(['j1']);
    expect(await uidsOf('sample')).toEqual([]);
    const body = await call(listEvents, { query: { city: 'Hamburg' }, base: stack.baseUrl });
    expect(body.events).toMatchObject([
      { title: 'Riverside 10k', source: 'city-events', activities: ['running'], country: 'DE' },
    ]);
    // The events refresh's own schedule (the plans sweep has one too).
    const schedule = await sql<{ name: string; cron: string }>`select name, cron from pgboss.schedule
      where name like 'events%'`.execute(db);
    expect(schedule.rows).toEqual([{ name: 'events-refresh', cron: '7 * * * *' }]);
  }, 90_000);

  it('a refresh job applies the feed as it is now', async () => {
    clubCalendar = vcalendar(
      CALENDAR.yoga.replace('END:VEVENT', 'STATUS:CANCELLED\r\nEND:VEVENT'),
      CALENDAR.games,
      CALENDAR.trail,
    );
    const boss = new PgBoss({
      connectionString: stack.databaseUrl,
      schema: 'pgboss',
      supervise: false,
      schedule: false,
      migrate: false,
    });
    await boss.start();
    try {
      await boss.send('events-refresh', {});
    } finally {
      await boss.stop({ graceful: false });
    }
    await expect.poll(() => uidsOf('club'), { timeout: 20_000 }).toEqual(['games@e2e', 'trail@e2e']);
  }, 60_000);
});

// ---------------------------------------------------------------------------
// Proxy mode (its own stack, against a local stand-in upstream)

interface Seen {
  url: URL;
  headers: http.IncomingHttpHeaders;
}

describe('proxy mode (EVENTS_UPSTREAM_URL)', () => {
  const seen: Seen[] = [];
  let upstream: http.Server;
  let upstreamPort: number;
  let stack: Stack;
  let db: Database;

  const upstreamFeed = (title: string) => ({
    events: [{ id: 'up-1', title, venue: { name: 'Upstream Hall' }, upstream_only: true }],
    total: 1,
    scraped_at_max: '2026-03-01T10:00:00Z',
  });

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://upstream');
      seen.push({ url, headers: req.headers });
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      switch (url.searchParams.get('mode')) {
        case 'error':
          return reply(500, { error: 'boom' });
        case 'shape':
          return reply(200, { results: [] });
        case 'html':
          return reply(200, '<html>maintenance</html>');
        case 'slow':
          return void setTimeout(() => reply(200, upstreamFeed('late')), 2500);
        default:
          return void setTimeout(
            () => reply(200, upstreamFeed(`for ${url.searchParams.get('city') ?? 'anywhere'}`)),
            150,
          );
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
    stack = await startStack({
      EVENTS_UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}/v1/events?key=operator-secret`,
      EVENTS_UPSTREAM_TIMEOUT_MS: '1000',
    });
    db = createDb(stack.databaseUrl, 2);
  }, 150_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
    upstream?.closeAllConnections();
    upstream?.close();
  });

  async function proxied(query: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${stack.baseUrl}${listEvents.path}?${query}`, { headers });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }
  const callsWith = (tag: string) => seen.filter((s) => s.url.searchParams.get('tag') === tag);

  it('forwards every parameter, documented or not, and passes the answer through', async () => {
    const query = new URLSearchParams({
      limit: '5',
      offset: '10',
      region: 'OR',
      activities: 'hiking,running',
      date_from: '2026-03-01',
      date_to: '2026-03-31T23:00:00Z',
      city: 'Portland',
      q: 'trail "fun run"',
      bbox: '-123.0,45.0,-122.0,46.0',
      sources: 'meetup,parks',
      sort: 'distance',
      near: '45.5,-122.6',
      lang: 'de',
      activity: 'climbing',
      'page token': 'a b&c',
      tag: 'forward',
    });
    const res = await proxied(query.toString());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(upstreamFeed('for Portland'));
    const [call] = callsWith('forward');
    expect(call!.url.pathname).toBe('/v1/events');
    expect(Object.fromEntries(call!.url.searchParams)).toEqual({
      ...Object.fromEntries(query),
      key: 'operator-secret',
    });
  });

  it("sends none of the caller's credentials or addresses upstream, and keeps the operator's key", async () => {
    await proxied('tag=headers&key=caller-key', {
      authorization: 'Bearer bm_at_callers_token',
      cookie: 'session=abc',
      'x-forwarded-for': '203.0.113.9',
      'x-api-key': 'caller',
    });
    const [call] = callsWith('headers');
    expect(call!.headers.authorization).toBeUndefined();
    expect(call!.headers.cookie).toBeUndefined();
    expect(call!.headers['x-forwarded-for']).toBeUndefined();
    expect(call!.headers['x-api-key']).toBeUndefined();
    expect(call!.headers['user-agent']).toBe('buddy-match-events-proxy/1.0');
    expect(call!.url.searchParams.getAll('key')).toEqual(['operator-secret']);
  });

  it('answers identical queries from the cache, with Cache-Control, ETag and 304', async () => {
    const first = await proxied('tag=cache&city=Berlin');
    const second = await proxied('city=Berlin&tag=cache');
    expect(callsWith('cache')).toHaveLength(1);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=(60|59), stale-while-revalidate=300$/);
    const etag = first.headers.get('etag')!;
    expect(second.headers.get('etag')).toBe(etag);
    const notModified = await proxied('tag=cache&city=Berlin', { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
    expect(callsWith('cache')).toHaveLength(1);
    // Another query is another upstream call.
    await proxied('tag=cache&city=Hamburg');
    expect(callsWith('cache')).toHaveLength(2);
  });

  it('turns a burst of identical polls into one upstream call', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => proxied('tag=burst&city=Lisbon')));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(callsWith('burst')).toHaveLength(1);
  });

  it.each([
    ['an error status', 'error', 'The events upstream answered HTTP 500'],
    [
      'a body of the wrong shape',
      'shape',
      "The events upstream's answer is not {events: [objects], total: integer, scraped_at_max: string|null}",
    ],
    ['a body that is not JSON', 'html', "The events upstream's answer is not JSON"],
  ])('answers 502 upstream_error for %s', async (_name, mode, message) => {
    const res = await proxied(`tag=${mode}&mode=${mode}`);
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: 'upstream_error', message, hint: expect.any(String) });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 upstream_unavailable with Retry-After when the upstream is too slow', async () => {
    const started = Date.now();
    const res = await proxied('tag=slow&mode=slow');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('upstream_unavailable');
    expect(res.body.error.message).toBe('The events upstream did not answer in time');
    expect(res.headers.get('retry-after')).toBe('30');
    expect(Date.now() - started).toBeLessThan(2400);
  });

  it('validates parameters before asking the upstream', async () => {
    const res = await proxied('tag=invalid&limit=0&bbox=1,2');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['bbox', 'limit']);
    expect(callsWith('invalid')).toHaveLength(0);
  });

  it('imports nothing into the directory in proxy mode', async () => {
    const rows = await db.selectFrom('events').select('id').execute();
    expect(rows).toEqual([]);
  });

  // Last: it closes the stand-in's port.
  it('answers 503 upstream_unavailable with Retry-After when the port is closed', async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    const res = await proxied('tag=closed&city=Nowhere');
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({
      code: 'upstream_unavailable',
      message: 'The events upstream could not be reached (ECONNREFUSED)',
    });
    expect(res.headers.get('retry-after')).toBe('30');
    // A query cached before still answers while the upstream is down.
    expect((await proxied('tag=cache&city=Berlin')).status).toBe(200);
  });
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

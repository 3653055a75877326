// The SQL seeder's people must be the demo seeder's kind of people, and it must leave the
// schema as it found it (it swaps two functions and drops indexes for the load).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../db';
import { migrateToLatest } from '../db/migrate';
import { startScratchDatabase } from '../e2e/support/stack';
import { isActivityId } from '../lib/activities';
import { bitsToGrid, countSlots } from '../lib/availability';
import { slugSchema } from '../lib/contract/schemas';
import { publicPointOf, type CoordsSource } from '../lib/discover/public-point';
import { seedDemoUsers } from '../lib/discover/seed';
import { missingFields } from '../lib/profiles/onboarding';
import { seedDemoUsersInSql } from './bench-discover-seed';

const COUNT = 2000;
let stop: (() => Promise<void>) | undefined;
let db: Database;

const schema = async () =>
  (
    await sql<{ item: string }>`
      select indexdef as item from pg_indexes where schemaname = 'public' and tablename in ('users', 'discover_postings')
      union all select pg_get_constraintdef(oid) from pg_constraint where conrelid in ('users'::regclass, 'discover_postings'::regclass)
      union all select pg_get_functiondef(oid) from pg_proc where proname like 'public_point%'
      order by 1`.execute(db)
  ).rows.map((r) => r.item);

let before: string[];

beforeAll(async () => {
  const database = await startScratchDatabase('buddy-seed-');
  stop = database.stop;
  db = createDb(database.url, 2);
  await migrateToLatest(db);
  before = await schema();
  await seedDemoUsersInSql(db, { count: COUNT, passwordHash: 'x', seed: 7, tag: 'sql', chunk: 1000 });
  await seedDemoUsers(db, { count: COUNT, passwordHash: 'x', seed: 7, tag: 'ts' });
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await stop?.();
});

type Row = {
  slug: string;
  email: string;
  display_name: string;
  about_me: string;
  gender: 'female';
  birthday: string;
  photo_url: string;
  activities: string[];
  schedule: string;
  latitude: number;
  longitude: number;
  location_seed: string;
  coords_source: CoordsSource;
  public_latitude: number;
  public_longitude: number;
  location: string;
  public_location: string;
  timezone: string | null;
  last_active_at: Date;
  created_at: Date;
};
const rows = async (tag: string) =>
  (await sql<Row>`select * from users where slug like ${`%-${tag}-%`} order by created_at`.execute(db)).rows;

describe('the SQL seeder (bench:discover)', () => {
  it('leaves the indexes, constraints and public-point functions as they were', async () => {
    expect(await schema()).toEqual(before);
  });

  it('makes complete, searchable profiles with unique slugs and emails', async () => {
    const people = await rows('sql');
    expect(people).toHaveLength(COUNT);
    for (const p of people) {
      expect(missingFields(p)).toEqual([]);
      expect(slugSchema.safeParse(p.slug).success).toBe(true);
      expect(p.activities.every(isActivityId)).toBe(true);
      expect(countSlots(bitsToGrid(p.schedule))).toBeGreaterThan(0);
      expect(p.timezone).toBeTruthy();
      expect(p.created_at.getTime()).toBeLessThanOrEqual(p.last_active_at.getTime());
    }
    expect(new Set(people.map((p) => p.email)).size).toBe(COUNT);
    const { rows: postings } = await sql<{ n: number }>`select count(*)::int as n from discover_postings p
      join users u on u.id = p.user_id where u.slug like '%-sql-%'`.execute(db);
    // One per activity, and one per pair of the first eight (0037).
    const pairs = (n: number) => (Math.min(n, 8) * (Math.min(n, 8) - 1)) / 2;
    expect(postings[0]!.n).toBe(people.reduce((n, p) => n + p.activities.length + pairs(p.activities.length), 0));
  });

  it('stores the public points the app computes (the TypeScript mirror)', async () => {
    for (const p of (await rows('sql')).slice(0, 500)) {
      const mirror = publicPointOf(p)!;
      expect(p.public_latitude).toBeCloseTo(mirror.latitude, 9);
      expect(p.public_longitude).toBeCloseTo(mirror.longitude, 9);
    }
  });

  it('draws activities, places, ages and recency like the demo seeder', async () => {
    const [bySql, byTs] = [await rows('sql'), await rows('ts')];
    const share = (people: Row[], f: (p: Row) => boolean) => people.filter(f).length / people.length;
    const mean = (people: Row[], f: (p: Row) => number) => people.reduce((s, p) => s + f(p), 0) / people.length;
    // Activities per person, the most popular activity, the biggest city, age, days away:
    // each within a few standard errors of the demo seeder's (2,000 people each).
    expect(mean(bySql, (p) => p.activities.length)).toBeCloseTo(
      mean(byTs, (p) => p.activities.length),
      0,
    );
    expect(
      Math.abs(
        share(bySql, (p) => p.activities.includes('hiking')) - share(byTs, (p) => p.activities.includes('hiking')),
      ),
    ).toBeLessThan(0.04);
    const shanghai = (p: Row) => p.public_location === 'Shanghai, CN';
    expect(Math.abs(share(bySql, shanghai) - share(byTs, shanghai))).toBeLessThan(0.01);
    const age = (p: Row) => (Date.now() - Date.parse(p.birthday)) / 31_557_600_000;
    expect(Math.abs(mean(bySql, age) - mean(byTs, age))).toBeLessThan(1);
    const away = (p: Row) => (Date.now() - p.last_active_at.getTime()) / 86_400_000;
    expect(Math.abs(mean(bySql, away) - mean(byTs, away))).toBeLessThan(1.5);
    // Everyone within a few spreads of a city of their label.
    const far = bySql.filter((p) => p.public_location === 'Shanghai, CN' && Math.abs(p.latitude - 31.22) > 1);
    expect(far).toEqual([]);
  });
});

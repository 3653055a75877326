// Discover: radius search over earthdistance/cube, activity overlap by GIN, and
// users.last_active_at for the "recent activity" part of the ranking.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Both ship with PostgreSQL's contrib (embedded 18, Debian 15). Not "trusted":
  // on a managed server a superuser may have to create them first.
  await sql`create extension if not exists cube`.execute(db);
  await sql`create extension if not exists earthdistance`.execute(db);

  // Touched with the token's last_used_at (at most once a minute) and never
  // indexed, so the update stays a cheap HOT update.
  await sql`alter table users add column last_active_at timestamptz`.execute(db);
  await sql`update users u set last_active_at = greatest(u.updated_at,
    (select max(t.last_used_at) from access_tokens t where t.user_id = u.id))`.execute(db);
  await sql`alter table users alter column last_active_at set default now(), alter column last_active_at set not null`.execute(db);

  // Only complete profiles are ever searched, so both indexes are partial: the
  // radius box (earth_box @> ll_to_earth) is a GiST scan, activities && {…} a GIN scan,
  // and PostgreSQL can BitmapAnd the two.
  await sql`create index users_discover_earth_idx on users using gist (ll_to_earth(latitude, longitude))
    where onboarding_complete`.execute(db);
  await sql`create index users_discover_activities_idx on users using gin (activities)
    where onboarding_complete`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_discover_activities_idx`.execute(db);
  await sql`drop index if exists users_discover_earth_idx`.execute(db);
  await sql`alter table users drop column if exists last_active_at`.execute(db);
  // The extensions stay: other objects may depend on them.
}

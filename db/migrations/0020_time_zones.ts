// Time zones: a weekly grid is local time, so each person gets an IANA zone. It is derived
// from their coordinates (tz-lookup, offline) unless they named one themselves
// (timezone_source 'person'); null while they have no place. Discover's postings carry it,
// so a search reads each candidate's grid on their own clock without touching users.
import tzlookup from '@photostructure/tz-lookup';
import { sql, type Kysely } from 'kysely';

/** The postings' columns and their source in users (as in 0009), with or without the zone. */
function postingsSql(withZone: boolean) {
  const zone = withZone ? ', timezone' : '';
  const postingColumns = sql.raw(
    `activity, cell, user_id, public_latitude, public_longitude, schedule, gender, birthday, show_age_by_decade, active_day${zone}`,
  );
  const postingsOf = (row: string) =>
    sql.raw(`select distinct a.activity, ${row}.discover_cell, ${row}.id, ${row}.public_latitude, ${row}.public_longitude, ${row}.schedule,
        ${row}.gender, ${row}.birthday, ${row}.show_age_by_decade, discover_active_day(${row}.last_active_at)${withZone ? `, ${row}.timezone` : ''}`);
  const searchable = (row: string) => sql.raw(`${row}.onboarding_complete and ${row}.discover_cell is not null`);
  return { postingColumns, postingsOf, searchable };
}

async function replacePostings(db: Kysely<any>, withZone: boolean): Promise<void> {
  const { postingColumns, postingsOf, searchable } = postingsSql(withZone);
  await sql`create or replace function discover_postings_on_insert() returns trigger language plpgsql as $$
    begin
      insert into discover_postings (${postingColumns})
        ${postingsOf('n')} from inserted_users n cross join lateral unnest(n.activities) as a(activity)
        where ${searchable('n')};
      return null;
    end $$`.execute(db);
  await sql`create or replace function discover_postings_on_update() returns trigger language plpgsql as $$
    begin
      delete from discover_postings where activity = any(old.activities) and cell = old.discover_cell and user_id = old.id;
      if ${searchable('new')} then
        insert into discover_postings (${postingColumns})
          ${postingsOf('new')} from unnest(new.activities) as a(activity);
      end if;
      return null;
    end $$`.execute(db);
  const zoneChanged = sql.raw(withZone ? 'or old.timezone is distinct from new.timezone' : '');
  await sql`drop trigger if exists users_discover_postings_update on users`.execute(db);
  await sql`create trigger users_discover_postings_update after update on users for each row
    when (old.onboarding_complete is distinct from new.onboarding_complete
      or old.activities is distinct from new.activities
      or old.public_latitude is distinct from new.public_latitude or old.public_longitude is distinct from new.public_longitude
      or old.schedule is distinct from new.schedule
      or old.gender is distinct from new.gender
      or old.birthday is distinct from new.birthday
      or old.show_age_by_decade is distinct from new.show_age_by_decade
      or discover_active_day(old.last_active_at) is distinct from discover_active_day(new.last_active_at)
      ${zoneChanged})
    execute function discover_postings_on_update()`.execute(db);
  // The key carries every column a search reads, so candidates stay an index-only scan.
  const included = sql.raw(
    `public_latitude, public_longitude, schedule, gender, birthday, show_age_by_decade, active_day${withZone ? ', timezone' : ''}`,
  );
  await sql`truncate discover_postings`.execute(db);
  await sql`alter table discover_postings drop constraint discover_postings_pkey,
    add constraint discover_postings_pkey primary key (activity, cell, user_id) include (${included})`.execute(db);
  await sql`insert into discover_postings (${postingColumns})
    ${postingsOf('u')} from users u cross join lateral unnest(u.activities) as a(activity)
    where ${searchable('u')}`.execute(db);
  await sql`analyze discover_postings`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users
    add column timezone text,
    add column timezone_source text constraint users_timezone_source_check check (timezone_source in ('coords', 'person'))`.execute(
    db,
  );
  // Everyone placed so far gets the zone of their exact point, a batch at a time.
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<{ id: string; latitude: number; longitude: number }>`
      select id, latitude, longitude from users
      where id > ${after}::uuid and latitude is not null and longitude is not null
      order by id limit 2000`.execute(db);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const zones = rows.map((row) => tzlookup(row.latitude, row.longitude));
    await sql`update users set timezone = z.timezone, timezone_source = 'coords'
      from unnest(${rows.map((row) => row.id)}::uuid[], ${zones}::text[]) as z(id, timezone)
      where users.id = z.id`.execute(db);
  }
  await sql`alter table discover_postings add column timezone text`.execute(db);
  await replacePostings(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replacePostings(db, false);
  await sql`alter table discover_postings drop column timezone`.execute(db);
  await sql`alter table users drop column timezone_source, drop column timezone`.execute(db);
}

// A profile an assistant made waits for its person's yes (issue 41 §2, REQUIRE_PERSON_CONSENT):
// users.awaiting_person_consent is set at registration when the operator requires consent, and
// cleared only by the person on the web ("Yes, show me to people nearby"). While it is set, the
// profile takes no part in Discover: the postings' "searchable" condition (0007, 0009, 0020)
// gains `not awaiting_person_consent`, so every search and count that reads discover_postings
// leaves the person out without a change of its own, and the update trigger fires when it changes.
// The functions are written out here in full (as 0020 left them, plus the condition): migrations
// are frozen in time.
import { sql, type Kysely } from 'kysely';

function postingsSql(withConsent: boolean) {
  const postingColumns = sql.raw(
    'activity, cell, user_id, public_latitude, public_longitude, schedule, gender, birthday, show_age_by_decade, active_day, timezone',
  );
  const postingsOf = (row: string) =>
    sql.raw(`select distinct a.activity, ${row}.discover_cell, ${row}.id, ${row}.public_latitude, ${row}.public_longitude, ${row}.schedule,
        ${row}.gender, ${row}.birthday, ${row}.show_age_by_decade, discover_active_day(${row}.last_active_at), ${row}.timezone`);
  const searchable = (row: string) =>
    sql.raw(
      `${row}.onboarding_complete and ${row}.discover_cell is not null${withConsent ? ` and not ${row}.awaiting_person_consent` : ''}`,
    );
  return { postingColumns, postingsOf, searchable };
}

/** Exported for 0037's down, which puts these very functions back. */
export async function replacePostings(db: Kysely<any>, withConsent: boolean, rebuild: boolean): Promise<void> {
  const { postingColumns, postingsOf, searchable } = postingsSql(withConsent);
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
  const consentChanged = sql.raw(
    withConsent ? 'or old.awaiting_person_consent is distinct from new.awaiting_person_consent' : '',
  );
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
      or old.timezone is distinct from new.timezone
      ${consentChanged})
    execute function discover_postings_on_update()`.execute(db);
  // Nobody awaits when the column is new, so the postings stand as they are; going down, the
  // people still waiting become searchable again and the postings are rebuilt from users.
  if (!rebuild) return;
  await sql`truncate discover_postings`.execute(db);
  await sql`insert into discover_postings (${postingColumns})
    ${postingsOf('u')} from users u cross join lateral unnest(u.activities) as a(activity)
    where ${searchable('u')}`.execute(db);
  await sql`analyze discover_postings`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column awaiting_person_consent boolean not null default false`.execute(db);
  await replacePostings(db, true, false);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replacePostings(db, false, true);
  await sql`alter table users drop column awaiting_person_consent`.execute(db);
}

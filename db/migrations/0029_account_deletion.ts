// "Delete my account" (GDPR Art. 17, issue 31): a deleted account is a disabled one with
// the reason 'deleted'. It reuses everything a disabled account already does (no sign-in,
// tokens refused, hidden from Discover, profiles and requests, the email released) and
// differs only where the person asked for more: its personal fields are wiped, and its
// chats stay visible to the other person, from "a deleted member" (lib/accounts/delete.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop constraint users_disabled_reason_check`.execute(db);
  await sql`alter table users add constraint users_disabled_reason_check
    check (disabled_reason in ('not_me', 'deleted'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // A deleted account stays hidden as a disowned one; its wiped fields cannot come back anyway.
  await sql`update users set disabled_reason = 'not_me' where disabled_reason = 'deleted'`.execute(db);
  await sql`alter table users drop constraint users_disabled_reason_check`.execute(db);
  await sql`alter table users add constraint users_disabled_reason_check check (disabled_reason in ('not_me'))`.execute(
    db,
  );
}

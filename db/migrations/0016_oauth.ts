// OAuth 2.1 for assistants (issue 19), served by oidc-provider: its models (grants,
// authorization codes, access and refresh tokens, interactions, sessions, dynamically
// registered clients, fetched client ID metadata documents, device codes) live in one
// table, as its adapter interface expects. Each consented grant is also a row in
// access_tokens (oauth_grant_id), so an assistant connected by OAuth is listed, limited
// and revoked exactly like one holding a bearer token.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_payloads')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oauth_payloads_pk', ['model', 'id'])
    .execute();
  await sql`create index oauth_payloads_grant_idx on oauth_payloads (grant_id) where grant_id is not null`.execute(db);
  await sql`create unique index oauth_payloads_user_code_idx on oauth_payloads (model, user_code) where user_code is not null`.execute(
    db,
  );
  await sql`create unique index oauth_payloads_uid_idx on oauth_payloads (model, uid) where uid is not null`.execute(
    db,
  );
  await sql`create index oauth_payloads_expires_idx on oauth_payloads (expires_at) where expires_at is not null`.execute(
    db,
  );

  await db.schema
    .alterTable('access_tokens')
    .addColumn('oauth_client_id', 'text')
    .addColumn('oauth_grant_id', 'text')
    .execute();
  await sql`create unique index access_tokens_oauth_grant_idx on access_tokens (oauth_grant_id) where oauth_grant_id is not null`.execute(
    db,
  );
  // Every way a token row is revoked (the account page, revoke-all, a disabled account)
  // also ends its OAuth grant: refresh tokens and codes go with it, in the same transaction.
  await sql`
    create function end_oauth_grant() returns trigger language plpgsql as $$
    begin
      delete from oauth_payloads where grant_id = new.oauth_grant_id or (model = 'Grant' and id = new.oauth_grant_id);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger access_tokens_end_oauth_grant after update of revoked_at on access_tokens
    for each row when (new.oauth_grant_id is not null and old.revoked_at is null and new.revoked_at is not null)
    execute function end_oauth_grant()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger access_tokens_end_oauth_grant on access_tokens`.execute(db);
  await sql`drop function end_oauth_grant()`.execute(db);
  await sql`drop index access_tokens_oauth_grant_idx`.execute(db);
  await db.schema.alterTable('access_tokens').dropColumn('oauth_grant_id').dropColumn('oauth_client_id').execute();
  await db.schema.dropTable('oauth_payloads').execute();
}

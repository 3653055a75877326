// OAuth access and refresh tokens (and codes) were stored in plain text as the id of
// their oauth_payloads row and in the payload's jti (issue 28). lib/oauth/adapter.ts now
// stores the hex SHA-256 of the id and no jti; the rows already there are rehashed the
// same way, so every connection keeps working through the upgrade.
import { sql, type Kysely } from 'kysely';

const HASHED_MODELS = [
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'ClientCredentials',
  'RegistrationAccessToken',
  'InitialAccessToken',
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update oauth_payloads
    set id = encode(sha256(convert_to(id, 'UTF8')), 'hex'), payload = payload - 'jti'
    where model in (${sql.join(HASHED_MODELS)})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // A hash cannot be turned back into its token: those tokens are gone, and their clients refresh or reconnect.
  await sql`delete from oauth_payloads where model in (${sql.join(HASHED_MODELS)})`.execute(db);
}

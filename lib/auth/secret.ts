// The Auth.js secret (it signs the CSRF cookie). AUTH_SECRET wins; otherwise one is
// generated once and kept in PostgreSQL, so a fresh install works and every instance
// on the same database agrees on it.
import { randomBytes } from 'node:crypto';
import type { Database } from '@/db';

const NAME = 'auth_secret';

export async function loadAuthSecret(db: Database, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return fromEnv;
  await db
    .insertInto('app_secrets')
    .values({ name: NAME, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', NAME).executeTakeFirstOrThrow();
  return row.value;
}

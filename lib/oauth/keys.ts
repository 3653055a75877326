// The OAuth server's signing key (ID tokens, signed responses): generated once and kept
// in app_secrets, like AUTH_SECRET and the VAPID keys, so every instance shares it.
import crypto from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Database } from '@/db';

const NAME = 'oauth_signing_key';

export async function loadOauthSigningKey(db: Database): Promise<JWK & { d: string }> {
  const generated = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const candidate = { ...generated, kid: crypto.randomUUID(), alg: 'ES256', use: 'sig' };
  await db
    .insertInto('app_secrets')
    .values({ name: NAME, value: JSON.stringify(candidate) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', NAME).executeTakeFirstOrThrow();
  return JSON.parse(row.value) as JWK & { d: string };
}

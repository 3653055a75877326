// How oauth_payloads names a row: credential-like ids are stored hashed (issue 28).
import { createHash } from 'node:crypto';

/**
 * Models whose id is itself a bearer credential: stored under its SHA-256, like
 * access_tokens.token_hash, and without the copy oidc-provider keeps in the payload (jti),
 * so reading the table gives nobody a working token. They are only ever found by id.
 * Not device codes: oidc-provider finds them by user code and saves them again under the
 * id it read back (they live 10 minutes and are single-use). Migration 0017 rehashed
 * the rows stored before.
 */
const SECRET_ID_MODELS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'ClientCredentials',
  'RegistrationAccessToken',
  'InitialAccessToken',
]);

export function hashesStoredId(model: string): boolean {
  return SECRET_ID_MODELS.has(model);
}

/** The row id for a model's id: hex SHA-256 for credentials (the same expression as migration 0017). */
export function storedOauthId(model: string, id: string): string {
  return SECRET_ID_MODELS.has(model) ? createHash('sha256').update(id, 'utf8').digest('hex') : id;
}

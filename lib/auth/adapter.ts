// The Auth.js adapter over our own tables. Accounts are only ever created by
// registration (POST /api/v1/register.json), so the adapter never creates users or links
// OAuth accounts. Email "verification tokens" are our single-use signin_links: the
// adapter consumes them (SHA-256, the same hash registration stores) but does not store
// Auth.js's own, because the mail job mints the emailed link (see lib/auth/config.ts).
import type { Adapter, AdapterSession, AdapterUser } from '@auth/core/adapters';
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { findUserByEmail } from '../accounts/password';
import { isCleanText } from '../contract/text';
import { createSession, deleteSession, findSession, updateSessionExpiry } from '../accounts/sessions';
import { consumeSigninLinkByHash } from '../accounts/signin-links';
import { findUserById } from '../profiles/profile';

export function toAdapterUser(
  row: Pick<UserRow, 'id' | 'email' | 'display_name' | 'photo_url' | 'email_verified_at'>,
): AdapterUser {
  return {
    id: row.id,
    email: row.email,
    name: row.display_name,
    image: row.photo_url,
    emailVerified: row.email_verified_at,
  };
}

const notSupported = (what: string) => () => {
  throw new Error(`${what} is not supported: accounts are created by POST /api/v1/register.json`);
};

export function kyselyAdapter(db: Database): Adapter {
  return {
    createUser: notSupported('Creating users through sign-in'),
    linkAccount: notSupported('Linking OAuth accounts'),
    getUserByAccount: async () => null,

    async getUser(id) {
      const row = await findUserById(db, id);
      return row ? toAdapterUser(row) : null;
    },
    async getUserByEmail(email) {
      if (!isCleanText(email)) return null; // never an account's address; NUL would fail the query
      const row = await findUserByEmail(db, email);
      return row ? toAdapterUser(row) : null;
    },
    async updateUser(user) {
      // The only update Auth.js makes: a magic link proved the address.
      const row = await db
        .updateTable('users')
        .set(user.emailVerified ? { email_verified_at: user.emailVerified } : {})
        .set({ updated_at: sql`now()` })
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAdapterUser(row);
    },

    async createSession({ sessionToken, userId, expires }): Promise<AdapterSession> {
      await createSession(db, userId, sessionToken, expires);
      return { sessionToken, userId, expires };
    },
    async getSessionAndUser(sessionToken) {
      const found = await findSession(db, sessionToken);
      if (!found) return null;
      return {
        session: { sessionToken, userId: found.user.id, expires: found.session.expires },
        user: toAdapterUser(found.user),
      };
    },
    async updateSession({ sessionToken, expires }) {
      if (!expires) return null;
      const updated = await updateSessionExpiry(db, sessionToken, expires);
      return updated ? { sessionToken, userId: updated.userId, expires: updated.expires } : null;
    },
    async deleteSession(sessionToken) {
      const deleted = await deleteSession(db, sessionToken);
      return deleted ? { sessionToken, userId: deleted.userId, expires: deleted.expires } : null;
    },

    // Emailed links are minted by the mail job, never from Auth.js's token.
    createVerificationToken: async () => null,
    async useVerificationToken({ token }) {
      if (!/^[0-9a-f]{64}$/.test(token)) return null;
      const link = await consumeSigninLinkByHash(db, Buffer.from(token, 'hex'));
      return link.ok ? { identifier: link.email.toLowerCase(), token, expires: link.expiresAt } : null;
    },
  };
}

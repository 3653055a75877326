// At the start of the process that runs the jobs (server/workers.ts), as the events sample is:
// the review world made afresh with REVIEW_ACCOUNT on, removed with it off. The one log line
// that carries the credentials is written only when the switch is on; it never holds the hash.
import type { Database } from '@/db';
import { loadAuthSecret } from '@/lib/auth/secret';
import { logError, logLine } from '@/lib/core/log';
import { reviewPassword } from '@/lib/review/credentials';
import { maintainReviewWorld, type ReviewWorldOptions } from '@/lib/review/world';

export interface ReviewAccountSettings extends Omit<ReviewWorldOptions, 'password'> {
  /** AUTH_SECRET when set; otherwise the one kept in PostgreSQL (lib/auth/secret.ts). */
  authSecret: string | undefined;
}

/** Never stops the server: a failure is logged and the service runs without the review world. */
export async function startReviewAccount(db: Database, settings: ReviewAccountSettings): Promise<void> {
  const { authSecret, ...options } = settings;
  try {
    const password = options.email ? reviewPassword(await loadAuthSecret(db, authSecret), options.email) : '';
    const outcome = await maintainReviewWorld(db, { ...options, password });
    if (outcome.action === 'seeded') {
      logLine({
        event: 'review_account',
        email: options.email,
        password,
        signin_url: `${options.baseUrl}/signin`,
        profile: outcome.reviewer.slug,
        sample_people: outcome.people - 1,
        message:
          'REVIEW_ACCOUNT is on: give these to app-directory reviewers; they sign in with them on the web or through OAuth.',
      });
    } else if (outcome.removed > 0) {
      logLine({ event: 'review_account_removed', people: outcome.removed });
    }
  } catch (error) {
    logError('review account setup failed', error);
  }
}

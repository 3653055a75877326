// "Email me a sign-in link": the same answer whether or not the address has an account,
// so the form cannot be used to find out who is registered. The mail job mints the link
// itself (lib/accounts/magic-link-mail.ts), so no secret waits in the queue.
import type { Database } from '@/db';
import { enqueue, QUEUES } from '../jobs/boss';
import {
  accountKey,
  AttemptRefused,
  linkRequestRefusal,
  linkRefusalMessage,
  recordAttempt,
  type AttemptLimits,
} from './attempt-limits';
import { findUserByEmail } from './password';

/**
 * Queues a sign-in link mail when the address has an account. Requests are counted per
 * email address (so no mailbox is flooded) and per client address. Past either limit the
 * caller gets AttemptRefused, saying when to ask again. The per-email count applies to
 * every address alike, account or not, so the refusal reveals nothing about accounts;
 * and a stranger who uses it up has only sent the owner working links.
 */
export async function requestSigninLinkEmail(
  db: Database,
  email: string,
  ctx: { ip: string; limits: AttemptLimits },
): Promise<'queued' | 'no_account'> {
  const key = accountKey(email);
  return db.transaction().execute(async (trx) => {
    const refusal = await linkRequestRefusal(trx, key, ctx.ip, ctx.limits);
    if (refusal) throw new AttemptRefused(refusal, linkRefusalMessage(refusal.reason, refusal.retryAfterSeconds));
    await recordAttempt(trx, 'link_request', key, ctx.ip, ctx.limits.windowSeconds);
    const user = key === '' ? undefined : await findUserByEmail(trx, key);
    if (!user) return 'no_account';
    await enqueue(trx, QUEUES.magicLinkMail, { userId: user.id });
    return 'queued';
  });
}

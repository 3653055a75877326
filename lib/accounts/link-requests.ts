// "Email me a sign-in link": the same answer whether or not the address has an account,
// so the form cannot be used to find out who is registered. The mail job mints the link
// itself (lib/accounts/magic-link-mail.ts), so no secret waits in the queue.
import type { Database } from '@/db';
import { enqueue, QUEUES } from '../jobs/boss';
import { accountKey, lockAndCountAttempts, rateLimited, recordAttempt, type AttemptLimits } from './attempt-limits';
import { findUserByEmail } from './password';

/**
 * Queues a sign-in link mail when the address has an account. Requests are counted per
 * address and per client IP: past the per-address limit further requests are quietly
 * dropped (an error would reveal the account and a mailbox should not be flooded); past
 * the per-IP limit the caller gets rate_limited, which says nothing about any account.
 */
export async function requestSigninLinkEmail(
  db: Database,
  email: string,
  ctx: { ip: string; limits: AttemptLimits },
): Promise<'queued' | 'no_account' | 'suppressed'> {
  const key = accountKey(email);
  return db.transaction().execute(async (trx) => {
    const counts = await lockAndCountAttempts(trx, 'link_request', key, ctx.ip, ctx.limits);
    if (counts.ip >= ctx.limits.perIp) {
      const retryAfter = counts.retryAfterSeconds('ip');
      throw rateLimited(`Too many sign-in link requests from your network. Try again in ${Math.ceil(retryAfter / 60)} minutes.`, retryAfter);
    }
    await recordAttempt(trx, 'link_request', key, ctx.ip, ctx.limits);
    if (counts.account >= ctx.limits.perAccount) return 'suppressed';
    const user = key === '' ? undefined : await findUserByEmail(trx, key);
    if (!user) return 'no_account';
    await enqueue(trx, QUEUES.magicLinkMail, { userId: user.id });
    return 'queued';
  });
}

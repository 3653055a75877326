// Unchanged inbox long-polls wait here, in the node:http server (server/start.ts), not
// inside a Next.js route (issue 13). Held in a route, a poll kept its Request, streams,
// async context and promise chain alive: about 20 KB each (npm run bench:poll). Held
// here it keeps its socket and one subscription.
//
// Only the plain case parks: GET inbox.json with a bearer token, wait=, and an
// If-None-Match that is still the current tag. Anything else, and every poll that
// finds something new, goes to the route, the one place that answers with a body.
// When the time is up with nothing new, the 304 is answered here, with the route's
// headers, after checking the token again (a revocation while waiting is refused).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getDb } from '@/db';
import { bearerToken, findTokenOwner } from '@/lib/http/bearer';
import { inboxTag, inboxVersion, MAX_HELD_POLLS_PER_ACCOUNT, userKey } from '@/lib/chats/poll';
import { getInbox } from '@/lib/contract/inbox';
import { startHold, subscribe, type Hold, type Subscription } from '@/lib/realtime/listener';
import { matchesIfNoneMatch } from '@/lib/core/etag';
import { tagHeaders } from '@/lib/http/conditional';
import { logError } from '@/lib/core/log';

const INBOX_PATH = getInbox.path;
const READ_SCOPE = getInbox.auth;
const PARKABLE_QUERY_KEYS = new Set(['since', 'wait']);

/**
 * True when the poll is parked here (it is answered later: a 304, or handed to `toRoute`);
 * false when the caller should hand it to Next.js now.
 */
export function parkUnchangedInboxPoll(req: IncomingMessage, res: ServerResponse, toRoute: () => void): boolean {
  if (req.method !== 'GET') return false;
  const target = req.url ?? '';
  const queryAt = target.indexOf('?');
  if (queryAt === -1 || target.slice(0, queryAt) !== INBOX_PATH) return false;
  const knownTag = req.headers['if-none-match'];
  const token = bearerToken(req.headers.authorization);
  if (!knownTag || !token) return false;
  const waitSeconds = parkableWait(new URLSearchParams(target.slice(queryAt + 1)));
  if (!waitSeconds) return false;
  void park(res, toRoute, { token, knownTag, deadline: Date.now() + waitSeconds * 1000 });
  return true;
}

/** The wait of a query the route would accept as it stands (the contract's own schema); else 0. */
function parkableWait(params: URLSearchParams): number {
  const seen = new Set<string>();
  for (const key of params.keys()) {
    // A repeated or unknown parameter is the route's to judge (and refuse).
    if (!PARKABLE_QUERY_KEYS.has(key) || seen.has(key)) return 0;
    seen.add(key);
  }
  const parsed = getInbox.query!.safeParse(Object.fromEntries(params));
  return parsed.success ? (parsed.data.wait ?? 0) : 0;
}

async function park(
  res: ServerResponse,
  toRoute: () => void,
  poll: { token: string; knownTag: string; deadline: number },
): Promise<void> {
  let subscription: Subscription | null = null;
  let hold: Hold | null = null;
  let gone = false;
  // A client that hangs up stops the wait at once; nothing is answered.
  const onClose = () => {
    gone = true;
    subscription?.cancel();
  };
  res.once('close', onClose);
  const handOver = () => {
    res.off('close', onClose);
    hold?.end();
    toRoute();
  };
  try {
    const db = getDb();
    const owner = await findTokenOwner(db, poll.token);
    if (!owner?.scopes.includes(READ_SCOPE)) return handOver();
    // Counted with the account's polls held in routes: past the cap, the oldest is answered.
    hold = startHold(owner.userId, MAX_HELD_POLLS_PER_ACCOUNT);
    for (;;) {
      // Subscribe before looking: a change committed between the look and the wait still wakes it.
      subscription = subscribe([userKey(owner.userId)], hold);
      const tag = inboxTag(await inboxVersion(db, owner.userId), owner.userId, owner.scopes);
      if (gone) return subscription.cancel();
      if (!matchesIfNoneMatch(poll.knownTag, tag)) {
        subscription.cancel();
        return handOver();
      }
      const left = poll.deadline - Date.now();
      if (left <= 0) subscription.cancel();
      else hold.enter();
      const reason = left > 0 ? await subscription.wait(left) : 'timeout';
      if (gone) return;
      if (reason === 'changed') continue;
      // Time is up (or the instance is draining) with nothing new: the token must still be good.
      const still = await findTokenOwner(db, poll.token);
      if (gone) return;
      if (still?.tokenId !== owner.tokenId || !still.scopes.includes(READ_SCOPE)) return handOver();
      res.off('close', onClose);
      return answerNotModified(res, tag, reason === 'draining');
    }
  } catch (error) {
    // The route reports it in its own words (e.g. a 503 while PostgreSQL is away).
    logError('parked poll failed', error);
    if (!gone && !res.headersSent) handOver();
  } finally {
    hold?.end();
  }
}

function answerNotModified(res: ServerResponse, etag: string, closing: boolean): void {
  res.writeHead(304, {
    // The headers the route's own 304 (notModified) carries; the security headers are the server's.
    ...tagHeaders(etag),
    ...(closing ? { connection: 'close' } : {}),
  });
  res.end();
}

// Cheap unchanged polls and long-polls (issue 13).
//
// An unchanged poll is answered from one indexed lookup: the person's inbox
// version (bumped by triggers, migration 0013) for inbox.json and chats.json, the
// chat's last message id and the reader's marker for messages.json. A `wait`
// holds the request, with no database connection, until the listener hears of a
// change (lib/realtime/listener.ts) or the time is up.
import { createHash } from 'node:crypto';
import type { Database } from '@/db';
import { startHold, subscribe, type Hold } from '../realtime/listener';

export const MAX_WAIT_SECONDS = 25;
/**
 * Polls one account may hold at once (web tabs and assistants hold one each). Past it the
 * oldest is answered at once (lib/realtime/listener.ts startHold): 5,000 held polls of
 * one account once stalled everyone else for 13-21 s (issue 28).
 */
export const MAX_HELD_POLLS_PER_ACCOUNT = 8;

/** Who holds a poll: the account it counts against, and the check that its credentials still stand. */
export interface PollHolder {
  account: string;
  /**
   * Run after every wait, before anything read after it is answered; throws (a 401) when
   * the token or session was revoked while the request was held.
   */
  stillAllowed: () => Promise<void>;
}

/** The one statement an unchanged poll runs (exported so the benchmark can EXPLAIN it). */
export const inboxVersionQuery = (db: Database, userId: string) =>
  db.selectFrom('inbox_versions').select('version').where('user_id', '=', userId);

/** The person's inbox version ("0" before anything ever happened to them). */
export async function inboxVersion(db: Database, userId: string): Promise<string> {
  const row = await inboxVersionQuery(db, userId).executeTakeFirst();
  return String(row?.version ?? '0');
}

/**
 * A weak tag of a version of something. `parts` names what the answer depends on
 * besides the version (the person, the endpoint, query parameters), so a tag is
 * never valid for another person's or another query's answer.
 */
export function versionTag(kind: string, version: string, parts: readonly unknown[]): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([kind, version, ...parts]))
    .digest('base64url')
    .slice(0, 22);
  return `W/"${kind}-${version}-${hash}"`;
}

/**
 * The inbox's tag. Plans in it are buddy:read's, so a token without that scope gets
 * other answers and other tags (the route and the parked poll in lib/http both use this).
 */
export function inboxTag(version: string, userId: string, scopes: readonly string[]): string {
  return versionTag('inbox', version, [userId, inboxShowsPlans(scopes)]);
}

export function inboxShowsPlans(scopes: readonly string[]): boolean {
  return scopes.includes('buddy:read');
}

export function userKey(userId: string): string {
  return `u:${userId}`;
}

export function chatKey(chatId: string): string {
  return `c:${chatId}`;
}

/**
 * Long-poll: look (after subscribing, so no change is missed between the look and
 * the wait); while the look finds nothing new, hold until a change for `key` or
 * the deadline. Returns the last look, and whether the time ran out with nothing new.
 */
export async function lookUntilChanged<T>(
  key: string,
  waitSeconds: number | undefined,
  look: () => Promise<T>,
  isNew: (value: T) => boolean,
  holder: PollHolder,
): Promise<{ value: T; timedOut: boolean }> {
  if (!waitSeconds) return { value: await look(), timedOut: false };
  const deadline = Date.now() + Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000;
  const hold = startHold(holder.account, MAX_HELD_POLLS_PER_ACCOUNT);
  try {
    return await holdUntilChanged(key, deadline, hold, look, isNew, holder);
  } finally {
    hold.end();
  }
}

async function holdUntilChanged<T>(
  key: string,
  deadline: number,
  hold: Hold,
  look: () => Promise<T>,
  isNew: (value: T) => boolean,
  holder: PollHolder,
): Promise<{ value: T; timedOut: boolean }> {
  let waited = false;
  for (;;) {
    const subscription = subscribe([key], hold);
    let value: T;
    try {
      // A token revoked while this request was held must not read what came after (issue 28).
      if (waited) await holder.stillAllowed();
      value = await look();
    } catch (error) {
      subscription.cancel();
      throw error;
    }
    if (isNew(value)) {
      subscription.cancel();
      return { value, timedOut: false };
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      subscription.cancel();
      return { value, timedOut: true };
    }
    hold.enter();
    const reason = await subscription.wait(left);
    waited = true;
    if (reason !== 'changed') {
      await holder.stillAllowed();
      return { value, timedOut: true };
    }
  }
}

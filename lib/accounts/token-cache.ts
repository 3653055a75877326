// Bearer-token lookups cached in process for a few seconds, so an unchanged poll
// costs no token query. Safe because revocation is announced: a trigger NOTIFYs
// "t:<token id>" when a token is revoked and "r:<user id>" when an account is
// disabled (migration 0013), and every instance's listener drops the entries at
// once. The cache is trusted only while the listener is connected; a reconnect
// empties it, since notifications sent while it was down are lost.
import { LRUCache } from 'lru-cache';
import { ensureListener, listenerHealth, onNotification } from '../realtime/listener';
import type { TokenOwner } from './token-owner';

const TTL_MS = 30_000;
const MAX_ENTRIES = 50_000;

interface CachedOwner {
  owner: TokenOwner;
  /** When last_used_at was last written, to keep touching it once a minute. */
  touchedAt: number;
}

interface CacheState {
  entries: LRUCache<string, CachedOwner>;
  epoch: number;
  /** Bumped by every revocation, so a lookup that raced one is not cached. */
  revocations: number;
}

const holder = globalThis as unknown as { __buddyTokenCache?: CacheState };

function cache(): CacheState {
  if (!holder.__buddyTokenCache) {
    const created: CacheState = { entries: new LRUCache({ max: MAX_ENTRIES, ttl: TTL_MS }), epoch: -1, revocations: 0 };
    holder.__buddyTokenCache = created;
    onNotification((kind, id) => {
      if (kind === 't' || kind === 'r') forget(created, kind, id);
    });
  }
  const state = holder.__buddyTokenCache;
  const health = listenerHealth();
  if (health.epoch !== state.epoch) {
    state.entries.clear();
    state.epoch = health.epoch;
  }
  return state;
}

function forget(state: CacheState, kind: 't' | 'r', id: string): void {
  state.revocations += 1;
  for (const [key, value] of state.entries.entries()) {
    if (kind === 't' ? value.owner.tokenId === id : value.owner.userId === id) state.entries.delete(key);
  }
}

/**
 * This instance forgets a token ('t', its id) or all of a person's ('r', the user id)
 * right after committing the revocation, so its own next request is refused without
 * waiting for the NOTIFY, which reaches the other instances (and this one again) within
 * milliseconds, or later on a loaded machine.
 */
export function forgetCachedOwners(kind: 't' | 'r', id: string): void {
  forget(cache(), kind, id);
}

/** The cached owner of a token hash while the listener vouches for it; undefined otherwise. */
export function cachedTokenOwner(hashKey: string): CachedOwner | undefined {
  void ensureListener();
  if (!listenerHealth().healthy) return undefined;
  return cache().entries.get(hashKey);
}

/** A marker taken before the database lookup; rememberTokenOwner refuses if a revocation came since. */
export function tokenCacheMark(): { revocations: number; epoch: number } {
  const state = cache();
  return { revocations: state.revocations, epoch: state.epoch };
}

export function rememberTokenOwner(
  hashKey: string,
  owner: TokenOwner,
  touchedAt: number,
  mark: { revocations: number; epoch: number },
): void {
  const health = listenerHealth();
  const state = cache();
  if (!health.healthy || mark.epoch !== health.epoch || mark.revocations !== state.revocations) return;
  state.entries.set(hashKey, { owner, touchedAt });
}

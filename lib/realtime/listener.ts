// One LISTEN connection per process on channel buddy_poll (migration 0013), fanned
// out in memory: held long-polls wait here without holding a pooled connection, and
// the bearer-token cache forgets revoked tokens here. A NOTIFY is delivered on
// commit to every instance listening, so wake-ups and revocations cross instances.
//
// State lives on globalThis: Next bundles this module into several chunks, and all
// of them (and server/start.ts, for the shutdown drain) must share one listener.
import pg from 'pg';
import { directDatabaseUrl } from '@/lib/core/database-env';

export const POLL_CHANNEL = 'buddy_poll';
const RECONNECT_DELAY_MS = 1_000;

/** Waiters woken per turn of the event loop, so one change that wakes thousands starves no other request. */
export const WAKE_BATCH = 64;

/** 'displaced': a newer hold of the same account took this one's place (see startHold). */
type WakeReason = 'changed' | 'timeout' | 'draining' | 'cancelled' | 'displaced';
type Wake = (reason: WakeReason) => void;
type NotificationHook = (kind: string, id: string) => void;

interface ListenerState {
  client: pg.Client | null;
  connecting: Promise<void> | null;
  /** True only while LISTEN is active: caches must not trust anything while it is false. */
  healthy: boolean;
  /** Counts every (re)connection, so a cache can tell it may have missed notifications. */
  epoch: number;
  draining: boolean;
  stopped: boolean;
  waiters: Map<string, Set<Wake>>;
  hooks: Set<NotificationHook>;
  /** Each account's held requests, oldest first (a Set keeps insertion order). */
  holds: Map<string, Set<Hold>>;
  /** The round trip on the LISTEN connection that the callers of this turn wait for (notificationsDelivered). */
  barrier: Promise<boolean> | null;
}

const holder = globalThis as unknown as { __buddyPollListener?: ListenerState };

function state(): ListenerState {
  holder.__buddyPollListener ??= {
    client: null,
    connecting: null,
    healthy: false,
    epoch: 0,
    draining: false,
    stopped: false,
    waiters: new Map(),
    hooks: new Set(),
    holds: new Map(),
    barrier: null,
  };
  return holder.__buddyPollListener;
}

/** Hands one buddy_poll payload to the hooks and waiters (the LISTEN connection calls it). */
export function deliverNotification(payload: string): void {
  const s = state();
  const colon = payload.indexOf(':');
  if (colon < 1) return;
  const kind = payload.slice(0, colon);
  const id = payload.slice(colon + 1);
  for (const hook of s.hooks) hook(kind, id);
  if (kind === 'u' || kind === 'c') {
    const set = s.waiters.get(payload);
    if (set) wakeInBatches([...set], 'changed');
  }
}

/**
 * Wakes WAKE_BATCH waiters, then yields (setImmediate) so requests that arrived meanwhile
 * get their turn before the next batch. One message once woke 2,048 polls of one chat in
 * a single turn and stalled every other request for 7 s (issue 28). A waiter that is
 * answered by other means before its batch comes just ignores the late wake.
 */
export function wakeInBatches(wakes: readonly Wake[], reason: WakeReason, from = 0): void {
  const to = Math.min(wakes.length, from + WAKE_BATCH);
  for (let i = from; i < to; i++) wakes[i]!(reason);
  if (to < wakes.length) setImmediate(() => wakeInBatches(wakes, reason, to));
}

async function connect(): Promise<void> {
  const s = state();
  // A LISTEN is session state: it needs its own server connection, never one behind a transaction pooler.
  const url = directDatabaseUrl();
  if (!url || s.stopped) return;
  const client = new pg.Client({ connectionString: url, application_name: 'buddy-poll-listener' });
  client.on('notification', (message) => {
    if (message.channel === POLL_CHANNEL && message.payload) deliverNotification(message.payload);
  });
  const lost = () => {
    if (s.client !== client) return;
    s.client = null;
    s.healthy = false;
    client.end().catch(() => {});
    // Whoever waits may have missed a change: wake them to look again.
    wakeInBatches(allWaiters(s), 'changed');
    if (!s.stopped) setTimeout(() => void ensureListener(), RECONNECT_DELAY_MS).unref();
  };
  client.on('error', lost);
  client.on('end', lost);
  await client.connect();
  await client.query(`LISTEN ${POLL_CHANNEL}`);
  s.client = client;
  s.epoch += 1;
  s.healthy = true;
}

/** Starts (or restarts) the listener; resolves once LISTEN is active, or quietly when it cannot be. */
export function ensureListener(): Promise<void> {
  const s = state();
  if (s.healthy || s.stopped) return Promise.resolve();
  s.connecting ??= connect()
    .catch(() => {
      if (!s.stopped) setTimeout(() => void ensureListener(), RECONNECT_DELAY_MS).unref();
    })
    .finally(() => {
      s.connecting = null;
    });
  return s.connecting;
}

export function listenerHealth(): { healthy: boolean; epoch: number } {
  const s = state();
  return { healthy: s.healthy, epoch: s.epoch };
}

/**
 * Resolves true once every notification committed before the call has been handed to the hooks,
 * false when the listener is down. A query on the LISTEN connection is the barrier: a commit
 * signals every listening backend, which sends what it was told before answering its next query,
 * and the client handles the messages of its connection in order. Callers in one turn of the
 * event loop share one query, sent after the last of them asked.
 */
export function notificationsDelivered(): Promise<boolean> {
  const s = state();
  if (!s.healthy || !s.client) return Promise.resolve(false);
  s.barrier ??= new Promise<boolean>((resolve) => {
    setImmediate(() => {
      const client = s.client;
      s.barrier = null;
      if (!s.healthy || !client) return resolve(false);
      client.query('select 1').then(
        () => resolve(s.client === client && s.healthy),
        () => resolve(false),
      );
    });
  });
  return s.barrier;
}

/** The LISTEN connection itself, for a test that keeps it busy (lib/realtime/listener.test.ts). */
export function listenerConnectionForTests(): pg.Client | null {
  return state().client;
}

/** Called for every notification (token revocations use it); returns the unsubscribe. */
export function onNotification(hook: NotificationHook): () => void {
  state().hooks.add(hook);
  return () => state().hooks.delete(hook);
}

export interface Subscription {
  /** Resolves when a key changes, the time is up, or the process is shutting down. */
  wait(timeoutMs: number): Promise<WakeReason>;
  cancel(): void;
}

/**
 * Subscribe first, then read the current state, then wait: a change committed
 * between the read and the wait still wakes the waiter.
 */
export function subscribe(keys: readonly string[], hold?: Hold): Subscription {
  const s = state();
  let settle: ((reason: WakeReason) => void) | null = null;
  let early: WakeReason | null = s.draining ? 'draining' : hold?.displaced ? 'displaced' : null;
  const wake = (reason: WakeReason) => {
    if (settle) settle(reason);
    else early ??= reason;
  };
  if (hold) hold.wake = wake;
  for (const key of keys) {
    let set = s.waiters.get(key);
    if (!set) s.waiters.set(key, (set = new Set()));
    set.add(wake);
  }
  const unlisten = () => {
    for (const key of keys) {
      const set = s.waiters.get(key);
      set?.delete(wake);
      if (set?.size === 0) s.waiters.delete(key);
    }
  };
  return {
    // A wait in progress ends too ('cancelled'), so its timer and closure go at once.
    cancel: () => (settle ? settle('cancelled') : unlisten()),
    wait(timeoutMs) {
      if (early) {
        unlisten();
        return Promise.resolve(early);
      }
      return new Promise<WakeReason>((resolve) => {
        const timer = setTimeout(() => settle?.('timeout'), timeoutMs);
        settle = (reason) => {
          settle = null;
          clearTimeout(timer);
          unlisten();
          resolve(reason);
        };
      });
    },
  };
}

/**
 * One held request of an account, from its first wait to its answer: it may subscribe
 * (and wait) several times, and keeps its place in the account's queue throughout.
 */
export interface Hold {
  /** True once a newer hold took this one's place: its wait ends now, with "nothing new". */
  displaced: boolean;
  /** The wake of its current subscription. */
  wake: Wake | null;
  /** Takes its place in the account's queue (before its first wait; again is a no-op). */
  enter(): void;
  end(): void;
}

/**
 * A held request of `account`, counted once it `enter`s (a request answered at once
 * counts against nobody). Past `cap` held at once, the oldest is answered at once (as at
 * its deadline: a 304 or an empty page) rather than the newest refused: of too many
 * polls, the oldest is the one most likely forgotten, and a tab or assistant that just
 * reconnected must not be shut out by them.
 */
export function startHold(account: string, cap: number): Hold {
  const s = state();
  let entered = false;
  const hold: Hold = {
    displaced: false,
    wake: null,
    enter() {
      if (entered) return;
      entered = true;
      let held = s.holds.get(account);
      if (!held) s.holds.set(account, (held = new Set()));
      held.add(hold);
      while (held.size > cap) {
        const oldest = held.values().next().value!;
        held.delete(oldest);
        oldest.displaced = true;
        oldest.wake?.('displaced');
      }
    },
    end() {
      const set = s.holds.get(account);
      set?.delete(hold);
      if (set?.size === 0) s.holds.delete(account);
    },
  };
  return hold;
}

/** How many requests are held right now (for the shutdown log and the benchmark). */
export function heldCount(): number {
  let n = 0;
  for (const set of state().waiters.values()) n += set.size;
  return n;
}

/** Shutdown: answer every held poll now, and let no new one wait. */
export function drainWaiters(): void {
  const s = state();
  s.draining = true;
  for (const wake of allWaiters(s)) wake('draining');
}

function allWaiters(s: ListenerState): Wake[] {
  const all: Wake[] = [];
  for (const set of s.waiters.values()) for (const wake of set) all.push(wake);
  return all;
}

export async function stopListener(): Promise<void> {
  const s = state();
  s.stopped = true;
  s.healthy = false;
  drainWaiters();
  const client = s.client;
  s.client = null;
  await client?.end().catch(() => {});
}

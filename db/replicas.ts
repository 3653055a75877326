// Read replicas (issue 33 §1): reads that tolerate a little lag (Discover's ranked search,
// profiles, overlap, plan options, the events directory) go to a streaming replica that is
// up, no further behind than DATABASE_READ_MAX_LAG_SECONDS, and has replayed everything the
// reader wrote. Everything else (writes, transactions, polls, blocks and deletions) stays on
// the primary.
//
// Read-your-writes: after a person's write, the primary's pg_current_wal_lsn() is their mark.
// The instance that took the write keeps it in memory and tells the others with a NOTIFY on
// the poll listener's channel (delivered on commit, before the write is answered). A replica
// serves that person only once its pg_last_wal_replay_lsn() is at or past the mark. While an
// instance's listener is down it may have missed marks, so it reads from the primary; when the
// listener is back, the primary's LSN at that moment becomes a floor every replica must pass.
//
// State lives on globalThis, like the pool and the listener: Next bundles this module into
// several chunks that must share one view of the replicas.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { logError, logLine } from '@/lib/core/log';
import {
  ensureListener,
  listenerHealth,
  notificationsDelivered,
  onNotification,
  POLL_CHANNEL,
} from '@/lib/realtime/listener';
import { getDb, poolOf, type Database } from './index';
import { prepareMarkedStatements } from './prepared';
import { databaseReadUrls, namedStatementsAllowed, replicaMaxLagSeconds } from '@/lib/core/database-env';
import type { DB } from './types';

/** How often a replica's position and lag are read again (lazily, on the next routed read). */
const CHECK_INTERVAL_MS = 1_000;
/** Marks kept per instance; past this the oldest is folded into the floor (safe: a floor only sends reads to the primary). */
const MAX_MARKS = 100_000;
/** The payload kind on POLL_CHANNEL: `w:<userId>@<lsn>`. */
const WRITE_MARK = 'w';

export type ReplicaState = 'unknown' | 'up' | 'lagging' | 'down';

interface Replica {
  /** replica-1, replica-2…: logs and /api/health never show a connection string. */
  name: string;
  db: Database;
  state: ReplicaState;
  replayLsn: bigint;
  lagSeconds: number | null;
  checkedAt: number;
  checking: Promise<void> | null;
  reads: number;
  skips: number;
}

interface RoutingState {
  replicas: Replica[];
  /** Each person's last write position, oldest first (a Map keeps insertion order). */
  marks: Map<string, bigint>;
  /** Every replica read must be at or past this (marks possibly missed while the listener was down). */
  floor: bigint;
  listenerEpoch: number;
  next: number;
  /** Lag-tolerant reads that went to the primary, by why. */
  primaryReads: { no_replica: number; own_write: number; listener_down: number };
  /** DATABASE_READ_MAX_LAG_SECONDS, read once with the replica list. */
  maxLagSeconds: number;
}

const holder = globalThis as unknown as { __buddyReplicas?: RoutingState };

/** `16/B374D848` as a number, so positions compare. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  if (!high || !low) throw new Error(`Not an LSN: ${text}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

function routing(): RoutingState {
  if (!holder.__buddyReplicas) {
    const readUrls = databaseReadUrls();
    const created: RoutingState = {
      replicas: readUrls.map((_, i) => ({
        name: `replica-${i + 1}`,
        db: null as unknown as Database,
        state: 'unknown',
        replayLsn: 0n,
        lagSeconds: null,
        checkedAt: 0,
        checking: null,
        reads: 0,
        skips: 0,
      })),
      marks: new Map(),
      floor: 0n,
      listenerEpoch: -1,
      next: 0,
      primaryReads: { no_replica: 0, own_write: 0, listener_down: 0 },
      maxLagSeconds: replicaMaxLagSeconds(),
    };
    readUrls.forEach((url, i) => {
      created.replicas[i]!.db = replicaDb(created.replicas[i]!, url);
    });
    holder.__buddyReplicas = created;
    if (created.replicas.length > 0) {
      onNotification((kind, id) => {
        if (kind !== WRITE_MARK) return;
        const at = id.lastIndexOf('@');
        if (at > 0) remember(created, id.slice(0, at), parseLsn(id.slice(at + 1)));
      });
    }
  }
  return holder.__buddyReplicas;
}

/** Connection failures (not query errors): the replica is gone, not the query wrong. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  const message = error instanceof Error ? error.message : '';
  return (
    /^(08|57P0)/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|connection timeout/i.test(message)
  );
}

/** A standby cancels a read whose rows its replay must remove: the read is fine on the primary. */
function isRecoveryConflict(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '40001' && error instanceof Error && /conflict with recovery/i.test(error.message);
}

function markDown(replica: Replica, error: unknown): void {
  if (replica.state !== 'down') {
    const reason = error instanceof Error ? error.message : String(error);
    logLine({ level: 'warn', message: 'replica_skipped', replica: replica.name, state: 'down', reason });
  }
  replica.state = 'down';
  replica.lagSeconds = null;
  replica.checkedAt = Date.now();
}

/**
 * A replica's Database: a read that finds it gone (refused, cut off between two checks) runs
 * again on the primary, so a replica dying is never an error to the reader. Reads only, so
 * running one again is safe.
 */
function replicaDb(replica: Replica, url: string): Database {
  // A replica that hangs must not hold a read for long: it is skipped instead.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 2_000, query_timeout: 10_000 });
  if (namedStatementsAllowed()) prepareMarkedStatements(pool);
  pool.on('error', (error) => logError('idle replica connection closed', error, { replica: replica.name }));
  const onPrimary = async (text: string, values: unknown[]) => {
    const client = await poolOf(getDb()).connect();
    try {
      return await client.query(text, values);
    } finally {
      client.release();
    }
  };
  const fallbackPool = {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        markDown(replica, error);
        return { query: onPrimary, release: () => {} };
      }
      let released = false;
      return {
        async query(text: string, values: unknown[]) {
          try {
            return await client.query(text, values);
          } catch (error) {
            if (isConnectionError(error)) {
              markDown(replica, error);
              released = true;
              client.release(true);
            } else if (!isRecoveryConflict(error)) throw error;
            return onPrimary(text, values);
          }
        },
        release() {
          if (!released) client.release();
          released = true;
        },
      };
    },
    end: () => pool.end(),
  };
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: fallbackPool as unknown as pg.Pool }) });
}

function remember(state: RoutingState, userId: string, lsn: bigint): void {
  const known = state.marks.get(userId);
  if (known !== undefined && known >= lsn) return;
  state.marks.delete(userId);
  state.marks.set(userId, lsn);
  if (state.marks.size > MAX_MARKS) {
    const [oldestId, oldestLsn] = state.marks.entries().next().value!;
    state.marks.delete(oldestId);
    if (oldestLsn > state.floor) state.floor = oldestLsn;
  }
}

async function check(replica: Replica, maxLagSeconds: number): Promise<void> {
  // Read after the query: a read that found the replica gone may have said so meanwhile (markDown).
  let before = replica.state;
  let reason = '';
  try {
    // Caught up with what it received: no lag, however long ago the last commit was.
    const { rows } = await sql<{ lsn: string | null; lag: number | null }>`
      select pg_last_wal_replay_lsn()::text as lsn,
             case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                  else extract(epoch from now() - pg_last_xact_replay_timestamp()) end::float8 as lag`.execute(
      replica.db,
    );
    before = replica.state;
    const row = rows[0];
    if (!row?.lsn) throw new Error('not a streaming replica (pg_last_wal_replay_lsn() is null)');
    replica.replayLsn = parseLsn(row.lsn);
    replica.lagSeconds = row.lag ?? 0;
    replica.state = replica.lagSeconds > maxLagSeconds ? 'lagging' : 'up';
    if (replica.state === 'lagging') reason = `${replica.lagSeconds.toFixed(1)} s behind (max ${maxLagSeconds} s)`;
  } catch (error) {
    before = replica.state;
    replica.state = 'down';
    replica.lagSeconds = null;
    reason = error instanceof Error ? error.message : String(error);
  }
  replica.checkedAt = Date.now();
  if (replica.state !== before && !(before === 'unknown' && replica.state === 'up')) {
    logLine(
      replica.state === 'up'
        ? { level: 'info', message: 'replica_restored', replica: replica.name, lag_seconds: replica.lagSeconds }
        : { level: 'warn', message: 'replica_skipped', replica: replica.name, state: replica.state, reason },
    );
  }
}

/** Reads the replicas' positions again when the last look is older than CHECK_INTERVAL_MS. */
async function refresh(state: RoutingState): Promise<void> {
  const maxLag = state.maxLagSeconds;
  const due = state.replicas.filter((r) => Date.now() - r.checkedAt >= CHECK_INTERVAL_MS && !r.checking);
  for (const replica of due) {
    replica.checking = check(replica, maxLag).finally(() => {
      replica.checking = null;
    });
  }
  // The first look is awaited; later ones run beside the read (a second-old position is a safe lower bound).
  await Promise.all(state.replicas.filter((r) => r.state === 'unknown' && r.checking).map((r) => r.checking));
}

/** The primary's current WAL position. */
async function primaryLsn(db: Database): Promise<bigint> {
  const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(db);
  return parseLsn(rows[0]!.lsn);
}

/**
 * Where a lag-tolerant read for `readerId` (null: nobody signed in) goes: a healthy replica
 * that has replayed the reader's own writes, else the primary.
 */
export async function lagTolerantDb(readerId: string | null): Promise<Database> {
  const primary = getDb();
  const state = routing();
  if (state.replicas.length === 0) return primary;
  await ensureListener();
  const listener = listenerHealth();
  if (!listener.healthy) {
    state.primaryReads.listener_down++;
    return primary;
  }
  // A person's own write may have been taken by another instance an instant ago: its mark is on
  // the way to this instance's listener. Wait until it has arrived (a round trip on the listener's
  // connection), or the soak's edit-then-read through two instances read the replica before its mark.
  if (readerId && !(await notificationsDelivered())) {
    state.primaryReads.listener_down++;
    return primary;
  }
  if (listener.epoch !== state.listenerEpoch) {
    // Marks sent while this instance was not listening are lost: nothing older than now may be trusted.
    const floor = await primaryLsn(primary);
    if (floor > state.floor) state.floor = floor;
    state.listenerEpoch = listener.epoch;
  }
  await refresh(state);
  const mark = readerId ? (state.marks.get(readerId) ?? 0n) : 0n;
  const needed = mark > state.floor ? mark : state.floor;
  const healthy = state.replicas.filter((r) => r.state === 'up');
  const ready = healthy.filter((r) => r.replayLsn >= needed);
  for (const replica of state.replicas) if (replica.state === 'lagging' || replica.state === 'down') replica.skips++;
  if (ready.length === 0) {
    state.primaryReads[healthy.length > 0 ? 'own_write' : 'no_replica']++;
    return primary;
  }
  const chosen = ready[state.next++ % ready.length]!;
  chosen.reads++;
  return chosen.db;
}

/**
 * After `userId`'s write has committed: their mark, here and (by NOTIFY) on every other
 * instance, before the write is answered. Nothing to do without replicas.
 */
export async function noteWrite(db: Database, userId: string): Promise<void> {
  const state = routing();
  if (state.replicas.length === 0) return;
  const { rows } = await sql<{ lsn: string }>`
    select lsn::text, pg_notify(${POLL_CHANNEL}, ${`${WRITE_MARK}:${userId}@`} || lsn::text)
    from (select pg_current_wal_lsn() as lsn) now`.execute(db);
  remember(state, userId, parseLsn(rows[0]!.lsn));
}

/** Whether lag-tolerant reads may go to a replica at all (DATABASE_READ_URLS is set). */
export function replicasConfigured(): boolean {
  return routing().replicas.length > 0;
}

/** For /api/health: each replica's state and counters, and the lag-tolerant reads the primary took. */
export function replicaMetrics() {
  const state = routing();
  return {
    replicas: state.replicas.map((r) => ({
      name: r.name,
      state: r.state,
      lag_seconds: r.lagSeconds,
      reads: r.reads,
      skipped: r.skips,
    })),
    primary_reads: { ...state.primaryReads },
  };
}

// A plan's life (issue 29, section 3): propose, counter, accept, decline, cancel, expire.
//
// Every status change runs in one transaction that holds the plan's row lock (a counter
// also holds the lock of the plan it replaces, taken first, and accepting a counter takes
// the replaced plan's lock before its own, so the two never wait on each other in a
// cycle). The plans_bump trigger (migration 0021) bumps both people's inbox versions in
// that same transaction, and the push job is queued in it too. So parallel answers
// serialise: the first to commit wins and the others see its result.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { PlanRow } from '@/db/types';
import { type Attribution, recordAgentAction } from '../attribution/attribution';
import { blockStatus, notBlockedBy } from '../blocks/status';
import { chatNotFound, lockChatFor } from '../chats/chats';
import { changedAfter, type NewAfter } from '../chats/poll-cursor';
import {
  PLAN_LIMITS,
  type CancelPlanBody,
  type PlanRecord,
  type PlanUpdateKind,
  type PlanUpdateRecord,
  type ProposePlanBody,
  type PLAN_VIEWS,
} from '../contract/plans';
import { ApiError } from '../core/errors';
import { isUuid } from '../contract/validation';
import { enqueue, QUEUES } from '../jobs/boss';
import type { PushJob } from '../notifications/push-job';
import { effectiveStatus, planNotFound, planRows, type PlanQueryRow, toPlan } from './records';
import { hasOffset, isoInstant, readTimes, timeProblems } from './time';
import { DEFAULT_REMINDER_OFFSETS, dropReminders, scheduleReminders } from './reminders';
import { moveShares } from './share';

const HOUR_MS = 3_600_000;

export type PlanView = (typeof PLAN_VIEWS)[number];

// ---------------------------------------------------------------------------
// Reading

/** One plan as the viewer sees it, or null when it is not theirs (or they blocked the other person). */
async function readPlan(db: Database, viewerId: string, planId: string, baseUrl: string): Promise<PlanRecord | null> {
  const row = await planRows(db, viewerId)
    .where('p.id', '=', planId)
    .where(notBlockedBy(viewerId, 'u.id'))
    .executeTakeFirst();
  return row ? toPlan(row as PlanQueryRow, viewerId, baseUrl) : null;
}

async function readPlanOrThrow(db: Database, viewerId: string, planId: string, baseUrl: string) {
  const plan = await readPlan(db, viewerId, planId, baseUrl);
  if (!plan) throw planNotFound();
  return plan;
}

export async function getPlan(db: Database, { viewerId, planId, baseUrl }: PlanTarget) {
  if (!isUuid(planId)) throw planNotFound();
  return { plan: await readPlanOrThrow(db, viewerId, planId, baseUrl) };
}

const CURSOR_VERSION = 'p1';

function encodePlanCursor(startsAt: string, id: string): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, Date.parse(startsAt), id]), 'utf8').toString('base64url');
}

function decodePlanCursor(cursor: string): { startsAt: Date; id: string } {
  try {
    const [version, ms, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      version === CURSOR_VERSION &&
      typeof ms === 'number' &&
      Number.isFinite(ms) &&
      typeof id === 'string' &&
      isUuid(id)
    )
      return { startsAt: new Date(ms), id };
  } catch {
    // Falls through to the refusal.
  }
  throw new ApiError('validation_failed', 'That cursor is not one this API returned.', {
    hint: 'Copy next_cursor (or next_url) as it was returned; the cursor is opaque.',
    fields: { cursor: 'not a cursor this API returned' },
  });
}

/** The caller's plans in one view, filtered and ordered as listPlans and the inbox need. */
export function planView(db: Database, viewerId: string, view: PlanView, now: Date) {
  const base = planRows(db, viewerId).where(notBlockedBy(viewerId, 'u.id'));
  if (view === 'to_answer') {
    return base
      .where('p.recipient_id', '=', viewerId)
      .where('p.status', '=', 'proposed')
      .where('p.starts_at', '>', now);
  }
  const upcoming = sql<boolean>`((p.status = 'proposed' and p.starts_at > ${now}) or (p.status = 'confirmed' and p.ends_at > ${now}))`;
  return view === 'upcoming' ? base.where(upcoming) : base.where(sql<boolean>`not ${upcoming}`);
}

export async function listPlans(
  db: Database,
  {
    viewerId,
    query,
    baseUrl,
    now = new Date(),
  }: {
    viewerId: string;
    query: { view?: PlanView; limit?: number; cursor?: string };
    baseUrl: string;
    now?: Date;
  },
) {
  const view = query.view ?? 'upcoming';
  const limit = query.limit ?? PLAN_LIMITS.pageDefault;
  const latestFirst = view === 'past';
  let rows = planView(db, viewerId, view, now);
  if (query.cursor) {
    const after = decodePlanCursor(query.cursor);
    rows = rows.where(
      latestFirst
        ? sql<boolean>`(p.starts_at, p.id) < (${after.startsAt}, ${after.id}::uuid)`
        : sql<boolean>`(p.starts_at, p.id) > (${after.startsAt}, ${after.id}::uuid)`,
    );
  }
  const direction = latestFirst ? 'desc' : 'asc';
  const page = (await rows
    .orderBy('p.starts_at', direction)
    .orderBy('p.id', direction)
    .limit(limit + 1)
    .execute()) as PlanQueryRow[];
  const plans = page.slice(0, limit).map((row) => toPlan(row, viewerId, baseUrl, now));
  const last = plans.at(-1);
  const nextCursor = page.length > limit && last ? encodePlanCursor(last.starts_at, last.id) : null;
  const nextUrl = nextCursor
    ? `${baseUrl}/api/v1/plans.json?${new URLSearchParams({
        view,
        cursor: nextCursor,
        ...(query.limit ? { limit: String(query.limit) } : {}),
      })}`
    : null;
  return { view, plans, next_cursor: nextCursor, next_url: nextUrl };
}

/** What the inbox shows of plans: proposals waiting for the caller, and their next confirmed plan. */
export async function inboxPlans(db: Database, viewerId: string, baseUrl: string, now = new Date()) {
  const [toAnswer, next] = await Promise.all([
    planView(db, viewerId, 'to_answer', now)
      .orderBy('p.starts_at', 'asc')
      .orderBy('p.id', 'asc')
      .limit(PLAN_LIMITS.pageDefault)
      .execute(),
    planView(db, viewerId, 'upcoming', now)
      .where('p.status', '=', 'confirmed')
      .orderBy('p.starts_at', 'asc')
      .orderBy('p.id', 'asc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    plans_to_answer: (toAnswer as PlanQueryRow[]).map((row) => toPlan(row, viewerId, baseUrl, now)),
    next_plan: next ? toPlan(next as PlanQueryRow, viewerId, baseUrl, now) : null,
  };
}

/**
 * What happened to a plan by its latest write (every write of a plan row is a state change):
 * a superseded row is never one, its counter is.
 */
function updateOf(row: PlanQueryRow): { what: PlanUpdateKind; actor: string | null } | null {
  switch (row.status) {
    case 'proposed':
      return { what: row.replaces ? 'countered' : 'proposed', actor: row.proposer_id };
    case 'confirmed':
      return { what: 'accepted', actor: row.accepted_by_user };
    case 'declined':
    case 'cancelled':
      // acted_by_user is null where the service cancelled (a block, an account's end).
      return { what: row.status, actor: row.acted_by_user };
    case 'expired':
      return { what: 'expired', actor: null };
    default:
      return null;
  }
}

/**
 * The caller's plan changes after `after` (a poll cursor's snapshot, or a time), oldest first,
 * the newest SOCIAL_LIMITS.inboxItems of them: each change once to a poll that follows its
 * cursor, the caller's own included (by "you"), so a poll a change woke always says what it was.
 */
export async function planUpdates(
  db: Database,
  viewerId: string,
  after: NewAfter,
  { baseUrl, now = new Date(), limit }: { baseUrl: string; now?: Date; limit: number },
): Promise<PlanUpdateRecord[]> {
  const rows = (await planRows(db, viewerId)
    .where(notBlockedBy(viewerId, 'u.id'))
    .where('p.status', '<>', 'superseded')
    .where(changedAfter('p.xid', 'p.updated_at', after))
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute()) as PlanQueryRow[];
  return rows.reverse().flatMap((row) => {
    const update = updateOf(row);
    if (!update) return [];
    const plan = toPlan(row, viewerId, baseUrl, now);
    const by = update.actor === null ? null : update.actor === viewerId ? 'you' : 'buddy';
    return [{ what: update.what, by, at: plan.updated_at, plan }];
  });
}

// ---------------------------------------------------------------------------
// Acting

interface PlanTarget {
  viewerId: string;
  planId: string;
  baseUrl: string;
}

/** The 409 for a plan that is not (or no longer) open to what the caller asked, carrying it as it is now. */
async function stateConflict(
  trx: Database,
  row: PlanRow,
  { viewerId, baseUrl, now }: { viewerId: string; baseUrl: string; now: Date },
  what: string,
): Promise<ApiError> {
  const plan = await readPlan(trx, viewerId, row.id, baseUrl);
  const status = effectiveStatus(row, now);
  if (status === 'superseded') {
    return new ApiError(
      'plan_superseded',
      `This plan was replaced by plan ${row.superseded_by}, so you cannot ${what} it`,
      {
        hint: `Read GET /api/v1/plans/${row.superseded_by}.json and answer that plan instead.`,
        plan,
      },
    );
  }
  const started = status === 'confirmed' && new Date(row.starts_at).getTime() <= now.getTime();
  return new ApiError(
    'plan_not_open',
    `This plan is ${started ? 'already under way' : status}, so you cannot ${what} it`,
    {
      hint: 'error.plan is the plan as it is now; tell the person, or propose a new plan.',
      plan,
    },
  );
}

/** Locks one of the caller's plans; 404 when it is not theirs or the pair is blocked either way. */
async function lockPlan(trx: Database, viewerId: string, planId: string): Promise<PlanRow> {
  const row = await trx
    .selectFrom('plans')
    .selectAll()
    .where('id', '=', planId)
    .where((eb) => eb.or([eb('proposer_id', '=', viewerId), eb('recipient_id', '=', viewerId)]))
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw planNotFound();
  const other = row.proposer_id === viewerId ? row.recipient_id : row.proposer_id;
  const blocks = await blockStatus(trx, { viewerId, otherId: other });
  if (blocks.byMe || blocks.byThem) throw planNotFound();
  return row;
}

function planPush(trx: Database, plan: Pick<PlanRow, 'id' | 'chat_id'>, recipientId: string, event: PlanEvent) {
  const job: PushJob = { kind: 'plan', recipientId, planId: plan.id, chatId: plan.chat_id, event };
  return enqueue(trx, QUEUES.push, job);
}
type PlanEvent = 'proposed' | 'accepted' | 'declined' | 'cancelled';

/**
 * The times of a new plan, or a 400 naming each field that is wrong. A time without an offset is
 * read on the proposer's clock (`zone`), and `notes` say how, for warnings.normalized.
 */
export function planTimes(body: Pick<ProposePlanBody, 'starts_at' | 'ends_at'>, now: Date, zone: string | null) {
  const read = readTimes(body, zone, now);
  const { startsAt, notes } = read;
  const endsAt = read.endsAt ?? new Date(startsAt.getTime() + PLAN_LIMITS.defaultDurationHours * HOUR_MS);
  const fields = timeProblems(startsAt, endsAt, now, PLAN_LIMITS);
  if (Object.keys(fields).length > 0) {
    throw new ApiError('validation_failed', 'The plan’s times are not possible', {
      hint: `Propose a start in the future and at most ${PLAN_LIMITS.maxDaysAhead} days ahead: 2026-06-06T10:00 on your clock, or with an offset (2026-06-06T10:00:00+02:00).`,
      fields,
    });
  }
  return { startsAt, endsAt, notes };
}

/**
 * A plan's times as proposePlan would read them (POST /api/v1/plans/read_time.json), on the
 * caller's clock, with the same refusals: nothing is stored.
 */
export async function readPlanTime(
  db: Database,
  viewerId: string,
  body: Pick<ProposePlanBody, 'starts_at' | 'ends_at'>,
  now = new Date(),
) {
  const zone =
    (await db.selectFrom('users').select('timezone').where('id', '=', viewerId).executeTakeFirst())?.timezone ?? null;
  const { startsAt, endsAt, notes } = planTimes(body, now, zone);
  return { starts_at: isoInstant(startsAt, zone), ends_at: isoInstant(endsAt, zone), read: notes };
}

export async function proposePlan(
  db: Database,
  {
    viewerId,
    chatId,
    body,
    by,
    baseUrl,
    now = new Date(),
  }: { viewerId: string; chatId: string; body: ProposePlanBody; by: Attribution; baseUrl: string; now?: Date },
) {
  if (!isUuid(chatId)) throw chatNotFound();
  const local = [body.starts_at, body.ends_at].some((text) => text && !hasOffset(text));
  const zone = local
    ? ((await db.selectFrom('users').select('timezone').where('id', '=', viewerId).executeTakeFirst())?.timezone ??
      null)
    : null;
  const { startsAt, endsAt, notes } = planTimes(body, now, zone);
  const id = await db.transaction().execute(async (trx) => {
    // The chat's row lock serialises proposals in one chat, so the open-proposal cap holds.
    const chat = await lockChatFor(trx, { chatId, viewerId });
    const { blocks } = chat;
    // As a message: the chat is gone for the one who blocked, closed (403) for the one blocked.
    if (blocks.byMe) throw chatNotFound();
    if (blocks.byThem) throw new ApiError('chat_unavailable', 'This chat is not accepting plans');

    let replaced: PlanRow | undefined;
    if (body.replaces) {
      replaced = isUuid(body.replaces)
        ? await trx
            .selectFrom('plans')
            .selectAll()
            .where('id', '=', body.replaces)
            .where('chat_id', '=', chatId)
            .forUpdate()
            .executeTakeFirst()
        : undefined;
      if (!replaced) {
        throw new ApiError('not_found', 'The plan named in replaces is not in this chat', {
          hint: 'replaces takes the id of a proposed or confirmed plan of this chat (GET /api/v1/plans.json).',
          fields: { replaces: 'no such plan in this chat' },
        });
      }
      const status = effectiveStatus(replaced, now);
      if (status !== 'proposed' && status !== 'confirmed')
        throw await stateConflict(trx, replaced, { viewerId, baseUrl, now }, 'replace');
      if (new Date(replaced.starts_at).getTime() <= now.getTime())
        throw await stateConflict(trx, replaced, { viewerId, baseUrl, now }, 'replace');
    }

    const open = await trx
      .selectFrom('plans')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('chat_id', '=', chatId)
      .where('status', '=', 'proposed')
      .where('starts_at', '>', now)
      .$if(replaced?.status === 'proposed', (q) => q.where('id', '<>', replaced!.id))
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= PLAN_LIMITS.openProposalsPerChat) {
      throw new ApiError(
        'too_many_open_plans',
        `This chat already holds ${PLAN_LIMITS.openProposalsPerChat} open proposals`,
        {
          hint: 'Wait for answers, cancel a proposal, or name one in replaces to change it instead of adding another.',
        },
      );
    }

    let sequence = 0;
    if (replaced) {
      const chain = await trx
        .selectFrom('plans')
        .select((eb) => eb.fn.max('sequence').as('max'))
        .where('calendar_uid', '=', replaced.calendar_uid)
        .executeTakeFirstOrThrow();
      sequence = Number(chain.max ?? 0) + 1;
    }
    const inserted = await trx
      .insertInto('plans')
      .values({
        chat_id: chatId,
        proposer_id: viewerId,
        recipient_id: chat.other_user_id,
        activity: body.activity,
        starts_at: startsAt,
        ends_at: endsAt,
        place_name: body.place.name,
        place_address: body.place.address || null,
        event_id: body.event_id || null,
        note: body.note || null,
        replaces: replaced?.id ?? null,
        calendar_uid: replaced?.calendar_uid ?? randomUUID(),
        sequence,
        agent_name: by.agentName ?? null,
        agent_session_id: by.agentSessionId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (replaced) {
      // A proposal is replaced at once; a confirmed plan only when its counter is accepted,
      // and then any other open counter to it is replaced by this newer one.
      await trx
        .updateTable('plans')
        .set({ status: 'superseded', superseded_by: inserted.id, updated_at: now })
        .where('status', '=', 'proposed')
        .where((eb) =>
          replaced.status === 'proposed'
            ? eb('id', '=', replaced.id)
            : eb.and([eb('replaces', '=', replaced.id), eb('id', '<>', inserted.id)]),
        )
        .execute();
      // A proposal replaced at once takes its share links (and check-in) along to the counter.
      if (replaced.status === 'proposed') await moveShares(trx, replaced.id, inserted.id);
    }
    await recordAgentAction(trx, viewerId, 'propose_plan', by);
    await planPush(trx, { id: inserted.id, chat_id: chatId }, chat.other_user_id, 'proposed');
    return inserted.id;
  });
  const plan = await readPlanOrThrow(db, viewerId, id, baseUrl);
  return { success: true as const, plan, ...(notes.length > 0 ? { warnings: { normalized: notes } } : {}) };
}

export async function answerPlan(
  db: Database,
  {
    viewerId,
    planId,
    answer,
    by,
    baseUrl,
    now = new Date(),
    reminderOffsets = DEFAULT_REMINDER_OFFSETS,
  }: PlanTarget & { answer: 'accept' | 'decline'; by: Attribution; now?: Date; reminderOffsets?: readonly number[] },
) {
  if (!isUuid(planId)) throw planNotFound();
  await db.transaction().execute(async (trx) => {
    // A counter's replaced plan is locked first, in the same order a new counter takes them.
    const peek = await trx.selectFrom('plans').select('replaces').where('id', '=', planId).executeTakeFirst();
    if (peek?.replaces) {
      await trx.selectFrom('plans').select('id').where('id', '=', peek.replaces).forUpdate().execute();
    }
    const row = await lockPlan(trx, viewerId, planId);
    if (row.recipient_id !== viewerId) {
      throw new ApiError('forbidden', `Only the other person can ${answer} this plan`, {
        hint: 'You proposed it: wait for their answer, or cancel it (cancel.json) or change it (propose with replaces).',
      });
    }
    const status = effectiveStatus(row, now);
    const done = answer === 'accept' ? 'confirmed' : 'declined';
    if (status === done) return; // Answered the same way already: the same plan again.
    if (status !== 'proposed') throw await stateConflict(trx, row, { viewerId, baseUrl, now }, answer);
    await trx
      .updateTable('plans')
      .set({
        status: done,
        acted_by_user: viewerId,
        acted_agent_name: by.agentName ?? null,
        acted_agent_session_id: by.agentSessionId ?? null,
        acted_at: now,
        updated_at: now,
        ...(answer === 'accept' ? { accepted_by_user: viewerId, accepted_agent_name: by.agentName ?? null } : {}),
      })
      .where('id', '=', row.id)
      .execute();
    if (answer === 'accept' && row.replaces) {
      await trx
        .updateTable('plans')
        .set({ status: 'superseded', superseded_by: row.id, updated_at: now })
        .where('id', '=', row.replaces)
        .where('status', 'in', ['proposed', 'confirmed'])
        .execute();
      await dropReminders(trx, [row.replaces]); // Moved: the old time's reminders go, the new ones follow.
      await moveShares(trx, row.replaces, row.id); // and its share links show the new time
    }
    if (answer === 'accept') await scheduleReminders(trx, row.id, reminderOffsets, now);
    await recordAgentAction(trx, viewerId, `${answer}_plan`, by);
    await planPush(trx, row, row.proposer_id, answer === 'accept' ? 'accepted' : 'declined');
  });
  return { success: true as const, plan: await readPlanOrThrow(db, viewerId, planId, baseUrl) };
}

export async function cancelPlan(
  db: Database,
  {
    viewerId,
    planId,
    body,
    by,
    baseUrl,
    now = new Date(),
  }: PlanTarget & { body: CancelPlanBody; by: Attribution; now?: Date },
) {
  if (!isUuid(planId)) throw planNotFound();
  await db.transaction().execute(async (trx) => {
    const row = await lockPlan(trx, viewerId, planId);
    const status = effectiveStatus(row, now);
    if (status === 'cancelled' && row.acted_by_user === viewerId) return; // Cancelled twice: the same plan.
    const open = status === 'proposed' || status === 'confirmed';
    const started = new Date(row.starts_at).getTime() <= now.getTime();
    if (!open || started || (body.if_status && body.if_status !== status))
      throw await stateConflict(trx, row, { viewerId, baseUrl, now }, 'cancel');
    await trx
      .updateTable('plans')
      .set({
        status: 'cancelled',
        cancel_reason: body.reason || null,
        acted_by_user: viewerId,
        acted_agent_name: by.agentName ?? null,
        acted_agent_session_id: by.agentSessionId ?? null,
        acted_at: now,
        updated_at: now,
      })
      .where('id', '=', row.id)
      .execute();
    await dropReminders(trx, [row.id]);
    await recordAgentAction(trx, viewerId, 'cancel_plan', by);
    const other = row.proposer_id === viewerId ? row.recipient_id : row.proposer_id;
    await planPush(trx, row, other, 'cancelled');
  });
  return { success: true as const, plan: await readPlanOrThrow(db, viewerId, planId, baseUrl) };
}

// ---------------------------------------------------------------------------
// The service's own changes (cancelPlansOf, for blocks and disabled accounts, is in ./cancel.ts)

/**
 * The minute sweep: stores "expired" on proposals nobody answered before their start
 * (reads already show it), and wakes both inboxes of plans that just ended, whose
 * next_plan moves on without any row changing.
 */
export async function sweepPlans(db: Database): Promise<{ expired: number; ended: number }> {
  const expired = await db
    .updateTable('plans')
    .set({ status: 'expired', updated_at: sql<Date>`now()` })
    .where('status', '=', 'proposed')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('plans')
        .select('id')
        .where('status', '=', 'proposed')
        .where('starts_at', '<=', sql<Date>`now()`)
        // Chain order, as every other writer locks plans (see cancelPlansOf).
        .orderBy('calendar_uid')
        .orderBy('sequence')
        .forUpdate(),
    )
    .executeTakeFirst();
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (
      select bump_inbox_pair(proposer_id, recipient_id) from (
        select distinct proposer_id, recipient_id from plans
        where status = 'confirmed' and ends_at <= now() and ends_at > now() - interval '2 minutes'
      ) ended
    ) bumped`.execute(db);
  return { expired: Number(expired.numUpdatedRows), ended: rows[0]?.n ?? 0 };
}

// Share my plan (issue 29 §6): a read-only page for a trusted contact, and the opt-in
// check-in that mails that contact when "All good?" goes unanswered. A meetup is shared the
// same way (issue 45, lib/meetups/share.ts): the rows, their rules and the check-in here are
// one code for both kinds, told apart by ShareRef.kind (plan_shares or meetup_shares).
//
// The page's URL carries a secret, stored only as its SHA-256 hash (as bearer tokens and
// the calendar feed's are), so its URL is shown once, when made. The contact mail carries
// a second secret of its own, made when that mail is sent (lib/plans/checkins.ts): the
// person's link is never kept in a readable form. Both die with a revoke, and the page
// answers 410 from 24 hours after the plan ends, or once the plan no longer stands.
import { birthdayOf } from '../ages/reach';
import { ageWorld } from '../ages/worlds';
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { PlanRow } from '@/db/types';
import { randomSecret, sha256 } from '../core/secrets';
import { blockStatus } from '../blocks/status';
import type { ShareState } from '../contract/web-app';
import { ApiError } from '../core/errors';
import { paths } from '../contract/paths';
import { isUuid } from '../contract/validation';
import { isSuppressed } from '../notifications/mail-preferences';
import { firstName, toUserCard } from '../profiles/records';
import { effectiveStatus, planNotFound } from './records';
import { isoInstant } from './time';

export const SHARE_PREFIX = 'bm_sh_';
/** How long after the plan (or meetup) ends its page still answers. */
export const SHARE_KEPT_HOURS = 24;
const HOUR_MS = 3_600_000;

export const sharePagePath = (secret: string) => `/share/${secret}`;

/** What is shared: a plan (plan_shares, 0026) or a meetup (meetup_shares, 0038). */
export type ShareKind = 'plan' | 'meetup';
export const SHARE_KINDS: readonly ShareKind[] = ['plan', 'meetup'];

const SHARE_TABLES = {
  plan: {
    table: 'plan_shares',
    key: 'plan_id',
    sharePath: (id: string) => paths.planShare({ planId: id }),
    /** The person's page of it in the web app, where "I'm fine" is answered. */
    page: (id: string) => `/account/plans/${encodeURIComponent(id)}`,
  },
  meetup: {
    table: 'meetup_shares',
    key: 'meetup_id',
    sharePath: (id: string) => paths.meetupShare({ meetupId: id }),
    page: (id: string) => `/account/meetups/${encodeURIComponent(id)}`,
  },
} as const;

/** The person's page of a shared plan or meetup, in the web app (the check-in mail links there). */
export const sharedThingPage = (kind: ShareKind, id: string) => SHARE_TABLES[kind].page(id);

/** One share row: of which plan or meetup, by whom. */
export interface ShareRef {
  kind: ShareKind;
  id: string;
  userId: string;
}

/** The row of `ref` to read (add the columns to select). */
export function selectShare(db: Database, ref: ShareRef) {
  const { table, key } = SHARE_TABLES[ref.kind];
  return db.selectFrom(table).where(key, '=', ref.id).where('user_id', '=', ref.userId);
}

/** The row of `ref` to change (add `.set(…)`). */
export function updateShare(db: Database, ref: ShareRef) {
  const { table, key } = SHARE_TABLES[ref.kind];
  return db.updateTable(table).where(key, '=', ref.id).where('user_id', '=', ref.userId);
}

/** What a share is of, as the rules here need it: the kind, the id and the times. */
export interface Shareable {
  kind: ShareKind;
  id: string;
  starts_at: Date | string;
  ends_at: Date | string;
}

interface Target {
  viewerId: string;
  planId: string;
}

/** One of the viewer's plans, unless the pair is blocked either way (then, as everywhere, 404). */
async function viewersPlan(db: Database, { viewerId, planId }: Target): Promise<PlanRow> {
  if (!isUuid(planId)) throw planNotFound();
  const row = await db
    .selectFrom('plans')
    .selectAll()
    .where('id', '=', planId)
    .where((eb) => eb.or([eb('proposer_id', '=', viewerId), eb('recipient_id', '=', viewerId)]))
    .executeTakeFirst();
  if (!row) throw planNotFound();
  const other = row.proposer_id === viewerId ? row.recipient_id : row.proposer_id;
  const blocks = await blockStatus(db, { viewerId, otherId: other });
  if (blocks.byMe || blocks.byThem) throw planNotFound();
  return row;
}

/** When a share's page stops answering: SHARE_KEPT_HOURS after the plan's (or meetup's) end. */
export const expiresAt = (thing: { ends_at: Date | string }) =>
  new Date(new Date(thing.ends_at).getTime() + SHARE_KEPT_HOURS * HOUR_MS);

const planOf = (plan: PlanRow): Shareable => ({
  kind: 'plan',
  id: plan.id,
  starts_at: plan.starts_at,
  ends_at: plan.ends_at,
});

/** The viewer's share of a plan or meetup as the API answers it (`url` only in the answer that made it). */
export async function stateOf(
  db: Database,
  thing: Shareable,
  viewerId: string,
  checkinDelaySeconds: number,
  url: string | null = null,
): Promise<ShareState> {
  const row = await selectShare(db, { kind: thing.kind, id: thing.id, userId: viewerId })
    .selectAll()
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const iso = (at: Date | string | null | undefined) => (at ? isoInstant(new Date(at)) : null);
  const asksAt = new Date(new Date(thing.starts_at).getTime() + checkinDelaySeconds * 1000);
  return {
    success: true,
    shared: Boolean(row),
    url: row ? url : null,
    created_at: iso(row?.created_at),
    expires_at: row ? iso(expiresAt(thing)) : null,
    contact_email: row?.contact_email ?? null,
    checkin: {
      on: Boolean(row?.checkin),
      asks_at: row?.checkin ? iso(asksAt) : null,
      asked_at: iso(row?.checkin_asked_at),
      fine_at: iso(row?.checkin_fine_at),
      contact_mailed: row?.contact_mail === 'sent',
    },
  };
}

/** Check-in turned on needs a contact to mail and a server that delivers mail. */
function assertCheckinPossible(kind: ShareKind, contactEmail: string | null, mailDelivered: boolean) {
  if (!mailDelivered) {
    throw new ApiError(
      'conflict',
      'Check-in is not available here: this server delivers no mail (SMTP_URL is not set)',
      {
        hint: 'Share the page without check-in and send the link yourself; the operator can set SMTP_URL to enable it.',
      },
    );
  }
  if (!contactEmail) {
    throw new ApiError('validation_failed', 'Check-in needs the email address of the friend to tell', {
      hint: `Name your trusted contact in contact_email when you share the ${kind}.`,
      fields: { contact_email: 'required for check-in' },
    });
  }
}

export interface ShareSettings {
  baseUrl: string;
  mailDelivered: boolean;
  checkinDelaySeconds: number;
  now?: Date;
}

/** Makes (or remakes: the old link stops) the viewer's share of a plan that still stands. */
export async function sharePlan(
  db: Database,
  target: Target,
  body: ShareBody,
  settings: ShareSettings,
): Promise<ShareState> {
  const now = settings.now ?? new Date();
  const plan = await viewersPlan(db, target);
  const status = effectiveStatus(plan, now);
  if ((status !== 'proposed' && status !== 'confirmed') || new Date(plan.ends_at).getTime() <= now.getTime()) {
    throw new ApiError(
      'plan_not_open',
      `This plan is ${status === 'confirmed' ? 'over' : status}, so there is nothing to share`,
      {
        hint: 'Share a plan that is proposed or confirmed and not over yet.',
      },
    );
  }
  return makeShare(db, planOf(plan), target.viewerId, body, settings);
}

export interface ShareBody {
  contact_email?: string | null;
  checkin?: boolean | null;
}

/**
 * Makes (or remakes) the viewer's share of a plan or meetup the caller found theirs and open.
 * Left out, check-in is on for a person under 18 whenever it can run (a contact, and mail delivered).
 */
export async function makeShare(
  db: Database,
  thing: Shareable,
  viewerId: string,
  body: ShareBody,
  settings: ShareSettings,
): Promise<ShareState> {
  const now = settings.now ?? new Date();
  const contact = body.contact_email?.trim() || null;
  const checkin =
    body.checkin ??
    (contact !== null && settings.mailDelivered && ageWorld(await birthdayOf(db, viewerId), now) === 'teen');
  if (checkin) assertCheckinPossible(thing.kind, contact, settings.mailDelivered);
  if (contact && (await isSuppressed(db, contact))) {
    throw new ApiError('validation_failed', 'That address asked Buddy Match not to send it mail', {
      hint: 'Name another trusted contact.',
      fields: { contact_email: 'does not accept mail from Buddy Match' },
    });
  }
  const secret = randomSecret(SHARE_PREFIX);
  const values = {
    secret_hash: sha256(secret),
    created_at: now,
    revoked_at: null,
    contact_email: contact,
    checkin,
  };
  const { table, key } = SHARE_TABLES[thing.kind];
  const keyValue = thing.kind === 'plan' ? { plan_id: thing.id } : { meetup_id: thing.id };
  await db
    .insertInto(table)
    .values({ ...keyValue, user_id: viewerId, ...values })
    // Made again: a new link (the old one and any contact link stop), the new contact and
    // choice; what check-in already did (asked, answered, mailed) stays, so it never repeats.
    .onConflict((oc) => oc.columns([key, 'user_id']).doUpdateSet({ ...values, contact_secret_hash: null }))
    .execute();
  return stateOf(db, thing, viewerId, settings.checkinDelaySeconds, `${settings.baseUrl}${sharePagePath(secret)}`);
}

export async function shareState(db: Database, target: Target, checkinDelaySeconds: number): Promise<ShareState> {
  return stateOf(db, planOf(await viewersPlan(db, target)), target.viewerId, checkinDelaySeconds);
}

/** Revoked: both links answer 410, check-in stops and the contact's address is forgotten. */
export async function revokeShare(db: Database, target: Target, checkinDelaySeconds: number): Promise<ShareState> {
  return revokeShareOf(db, planOf(await viewersPlan(db, target)), target.viewerId, checkinDelaySeconds);
}

/** Revokes the viewer's share of a plan or meetup the caller found theirs. */
export async function revokeShareOf(
  db: Database,
  thing: Shareable,
  viewerId: string,
  checkinDelaySeconds: number,
): Promise<ShareState> {
  await endShare(db, { kind: thing.kind, id: thing.id, userId: viewerId });
  return stateOf(db, thing, viewerId, checkinDelaySeconds);
}

/** Turns one share off, if it is on: both links answer 410, check-in stops, the contact is forgotten. */
export async function endShare(db: Database, ref: ShareRef): Promise<void> {
  await updateShare(db, ref)
    .set({ revoked_at: sql<Date>`now()`, contact_email: null, checkin: false })
    .where('revoked_at', 'is', null)
    .execute();
}

/** Check-in on or off for the viewer's share, or "I'm fine" (which stops it for good). */
export async function answerCheckin(
  db: Database,
  target: Target,
  body: CheckinBody,
  settings: Omit<ShareSettings, 'baseUrl'>,
): Promise<ShareState> {
  return answerCheckinOf(db, planOf(await viewersPlan(db, target)), target.viewerId, body, settings);
}

export interface CheckinBody {
  on?: boolean | null;
  fine?: boolean | null;
}

/** Answers the viewer's check-in of a plan or meetup the caller found theirs. */
export async function answerCheckinOf(
  db: Database,
  thing: Shareable,
  viewerId: string,
  body: CheckinBody,
  settings: Omit<ShareSettings, 'baseUrl'>,
): Promise<ShareState> {
  const ref = { kind: thing.kind, id: thing.id, userId: viewerId };
  const share = await selectShare(db, ref).select(['contact_email']).where('revoked_at', 'is', null).executeTakeFirst();
  if (body.fine) {
    // Any time, even before the question: nothing more is asked or sent.
    await updateShare(db, ref).set({ checkin_fine_at: sql<Date>`coalesce(checkin_fine_at, now())` }).execute();
  } else if (body.on !== undefined && body.on !== null) {
    if (!share) {
      throw new ApiError('not_found', `This ${thing.kind} is not shared with anyone yet`, {
        hint: `Share it first (POST ${SHARE_TABLES[thing.kind].sharePath(thing.id)} with contact_email), then turn check-in on.`,
      });
    }
    if (body.on) assertCheckinPossible(thing.kind, share.contact_email, settings.mailDelivered);
    await updateShare(db, ref).set({ checkin: body.on }).execute();
  } else {
    throw new ApiError('validation_failed', 'Say what to do: {"fine": true} or {"on": true|false}', {
      fields: { body: 'fine or on' },
    });
  }
  return stateOf(db, thing, viewerId, settings.checkinDelaySeconds);
}

/**
 * A counter that replaced a plan carries its shares along (as reminders move): the same
 * link now shows the new time and place, and check-in follows the new start. Call in the
 * transaction that supersedes `fromPlanId`.
 */
export async function moveShares(trx: Database, fromPlanId: string, toPlanId: string): Promise<void> {
  await sql`update plan_shares s set plan_id = ${toPlanId}
    where s.plan_id = ${fromPlanId}
      and not exists (select 1 from plan_shares t where t.plan_id = ${toPlanId} and t.user_id = s.user_id)`.execute(
    trx,
  );
}

// ---------------------------------------------------------------------------
// The page (server/doors/share.tsx renders it)

export interface SharedPlanView {
  sharerFirstName: string;
  buddyFirstName: string;
  buddyPhotoURL: string | null;
  activity: string;
  startsAt: Date;
  endsAt: Date;
  /** The sharer's zone: the contact most likely lives where they do. */
  zone: string;
  placeName: string;
  placeAddress: string | null;
  status: 'proposed' | 'confirmed';
  expiresAt: Date;
}

/** What a share link shows now: the plan (or meetup), why it is gone (410), or nothing known (404). */
export type SharePageResult<View = SharedPlanView> =
  | { kind: 'missing' }
  | { kind: 'gone'; why: string }
  | { kind: 'ok'; view: View };

/** A link's secret as stored (its hash), or null when it cannot be one of ours. */
export function shareSecretHash(secret: string): Buffer | null {
  return secret.startsWith(SHARE_PREFIX) && secret.length <= 100 ? sha256(secret) : null;
}

/** What a share link shows now: the plan, or why it is gone (410), or nothing known (404). */
export async function sharedPlan(
  db: Database,
  secret: string,
  baseUrl: string,
  now = new Date(),
): Promise<SharePageResult> {
  const hash = shareSecretHash(secret);
  if (!hash) return { kind: 'missing' };
  const row = await db
    .selectFrom('plan_shares as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .innerJoin('users as me', 'me.id', 's.user_id')
    .innerJoin('users as u', (join) =>
      join.on(sql<boolean>`u.id = case when p.proposer_id = s.user_id then p.recipient_id else p.proposer_id end`),
    )
    .select([
      's.revoked_at',
      'p.status',
      'p.starts_at',
      'p.ends_at',
      'p.activity',
      'p.place_name',
      'p.place_address',
      'me.display_name as sharer_name',
      'me.timezone as sharer_zone',
      'me.disabled_at as sharer_disabled_at',
      'u.id as u_id',
      'u.slug as u_slug',
      'u.display_name as u_display_name',
      'u.photo_url as u_photo_url',
      'u.public_location as u_public_location',
    ])
    .where((eb) => eb.or([eb('s.secret_hash', '=', hash), eb('s.contact_secret_hash', '=', hash)]))
    .executeTakeFirst();
  if (!row) return { kind: 'missing' };
  if (row.revoked_at) return { kind: 'gone', why: 'The person who shared this plan turned the link off.' };
  const expires = expiresAt(row);
  if (expires.getTime() <= now.getTime()) return { kind: 'gone', why: 'This plan is over, and its page has expired.' };
  const status = effectiveStatus(row, now);
  if ((status !== 'proposed' && status !== 'confirmed') || row.sharer_disabled_at) {
    return { kind: 'gone', why: 'This plan is no longer happening.' };
  }
  const card = toUserCard(
    {
      id: row.u_id,
      slug: row.u_slug,
      display_name: row.u_display_name,
      photo_url: row.u_photo_url,
      public_location: row.u_public_location,
    },
    baseUrl,
  );
  return {
    kind: 'ok',
    view: {
      sharerFirstName: firstName(row.sharer_name),
      buddyFirstName: firstName(row.u_display_name),
      buddyPhotoURL: card.photoURL,
      activity: row.activity,
      startsAt: new Date(row.starts_at),
      endsAt: new Date(row.ends_at),
      zone: row.sharer_zone ?? 'UTC',
      placeName: row.place_name,
      placeAddress: row.place_address,
      status,
      expiresAt: expires,
    },
  };
}

/** Plans whose "All good?" waits for the person's answer (the home screen shows them). */
export async function waitingCheckins(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('plan_shares as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .select('s.plan_id')
    .where('s.user_id', '=', userId)
    .where('s.checkin', '=', true)
    .where('s.checkin_asked_at', 'is not', null)
    .where('s.checkin_fine_at', 'is', null)
    .where('s.revoked_at', 'is', null)
    .where('p.status', '=', 'confirmed')
    .where(sql<boolean>`p.ends_at + make_interval(hours => ${SHARE_KEPT_HOURS}) > now()`)
    .execute();
  return rows.map((row) => row.plan_id);
}

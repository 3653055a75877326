// Share my plan (issue 29 §6): a read-only page for a trusted contact, and the opt-in
// check-in that mails that contact when "All good?" goes unanswered.
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
import { isUuid } from '../contract/validation';
import { isSuppressed } from '../notifications/mail-preferences';
import { firstName, toUserCard } from '../profiles/records';
import { effectiveStatus, planNotFound } from './records';
import { isoInstant } from './time';

export const SHARE_PREFIX = 'bm_sh_';
/** How long after the plan ends its page still answers. */
export const SHARE_KEPT_HOURS = 24;
const HOUR_MS = 3_600_000;

export const sharePagePath = (secret: string) => `/share/${secret}`;

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

const expiresAt = (plan: Pick<PlanRow, 'ends_at'>) =>
  new Date(new Date(plan.ends_at).getTime() + SHARE_KEPT_HOURS * HOUR_MS);

async function stateOf(
  db: Database,
  plan: PlanRow,
  viewerId: string,
  checkinDelaySeconds: number,
  url: string | null = null,
): Promise<ShareState> {
  const row = await db
    .selectFrom('plan_shares')
    .selectAll()
    .where('plan_id', '=', plan.id)
    .where('user_id', '=', viewerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const iso = (at: Date | string | null | undefined) => (at ? isoInstant(new Date(at)) : null);
  const asksAt = new Date(new Date(plan.starts_at).getTime() + checkinDelaySeconds * 1000);
  return {
    success: true,
    shared: Boolean(row),
    url: row ? url : null,
    created_at: iso(row?.created_at),
    expires_at: row ? iso(expiresAt(plan)) : null,
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
function assertCheckinPossible(contactEmail: string | null, mailDelivered: boolean) {
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
      hint: 'Name your trusted contact in contact_email when you share the plan.',
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
  body: { contact_email?: string | null; checkin?: boolean | null },
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
  const contact = body.contact_email?.trim() || null;
  // Left out, check-in is on for a person under 18 whenever it can run (a contact, and mail delivered).
  const checkin =
    body.checkin ??
    (contact !== null && settings.mailDelivered && ageWorld(await birthdayOf(db, target.viewerId), now) === 'teen');
  if (checkin) assertCheckinPossible(contact, settings.mailDelivered);
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
  await db
    .insertInto('plan_shares')
    .values({ plan_id: plan.id, user_id: target.viewerId, ...values })
    // Made again: a new link (the old one and any contact link stop), the new contact and
    // choice; what check-in already did (asked, answered, mailed) stays, so it never repeats.
    .onConflict((oc) => oc.columns(['plan_id', 'user_id']).doUpdateSet({ ...values, contact_secret_hash: null }))
    .execute();
  return stateOf(
    db,
    plan,
    target.viewerId,
    settings.checkinDelaySeconds,
    `${settings.baseUrl}${sharePagePath(secret)}`,
  );
}

export async function shareState(db: Database, target: Target, checkinDelaySeconds: number): Promise<ShareState> {
  return stateOf(db, await viewersPlan(db, target), target.viewerId, checkinDelaySeconds);
}

/** Revoked: both links answer 410, check-in stops and the contact's address is forgotten. */
export async function revokeShare(db: Database, target: Target, checkinDelaySeconds: number): Promise<ShareState> {
  const plan = await viewersPlan(db, target);
  await db
    .updateTable('plan_shares')
    .set({ revoked_at: sql<Date>`now()`, contact_email: null, checkin: false })
    .where('plan_id', '=', plan.id)
    .where('user_id', '=', target.viewerId)
    .where('revoked_at', 'is', null)
    .execute();
  return stateOf(db, plan, target.viewerId, checkinDelaySeconds);
}

/** Check-in on or off for the viewer's share, or "I'm fine" (which stops it for good). */
export async function answerCheckin(
  db: Database,
  target: Target,
  body: { on?: boolean | null; fine?: boolean | null },
  settings: Omit<ShareSettings, 'baseUrl'>,
): Promise<ShareState> {
  const plan = await viewersPlan(db, target);
  const share = await db
    .selectFrom('plan_shares')
    .select(['contact_email'])
    .where('plan_id', '=', plan.id)
    .where('user_id', '=', target.viewerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (body.fine) {
    // Any time, even before the question: nothing more is asked or sent.
    await db
      .updateTable('plan_shares')
      .set({ checkin_fine_at: sql<Date>`coalesce(checkin_fine_at, now())` })
      .where('plan_id', '=', plan.id)
      .where('user_id', '=', target.viewerId)
      .execute();
  } else if (body.on !== undefined && body.on !== null) {
    if (!share) {
      throw new ApiError('not_found', 'This plan is not shared with anyone yet', {
        hint: `Share it first (POST /api/v1/plans/${plan.id}/share.json with contact_email), then turn check-in on.`,
      });
    }
    if (body.on) assertCheckinPossible(share.contact_email, settings.mailDelivered);
    await db
      .updateTable('plan_shares')
      .set({ checkin: body.on })
      .where('plan_id', '=', plan.id)
      .where('user_id', '=', target.viewerId)
      .execute();
  } else {
    throw new ApiError('validation_failed', 'Say what to do: {"fine": true} or {"on": true|false}', {
      fields: { body: 'fine or on' },
    });
  }
  return stateOf(db, plan, target.viewerId, settings.checkinDelaySeconds);
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

export type SharePageResult =
  | { kind: 'missing' }
  | { kind: 'gone'; why: string }
  | { kind: 'ok'; view: SharedPlanView };

/** What a share link shows now: the plan, or why it is gone (410), or nothing known (404). */
export async function sharedPlan(
  db: Database,
  secret: string,
  baseUrl: string,
  now = new Date(),
): Promise<SharePageResult> {
  if (!secret.startsWith(SHARE_PREFIX) || secret.length > 100) return { kind: 'missing' };
  const hash = sha256(secret);
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

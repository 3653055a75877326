// Share my meetup (issue 45): the plan's safety net (lib/plans/share.ts, issue 29 §6) for a
// meetup. Whoever holds a seat in it (the host, or someone confirmed) may share it with a trusted
// contact and turn check-in on; everyone else, the waitlisted included, gets the 404 a meetup that
// does not exist gets. The rows (meetup_shares, 0038), the secret, the check-in and its mails are
// the plan's code; what is the meetup's own is here: who may share it, when it is open, and what
// its page shows: what, when, the place with its address (the sharer holds a seat, so they see
// it), the host's first name and how many are going; nobody else's name, photo or anything else.
// A place that ends (left, removed, a closed account) ends its share (./seats.ts unseated).
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { MeetupRow } from '@/db/types';
import { getActivity } from '../activities/catalog';
import type { ShareState } from '../contract/web-app';
import { isUuid } from '../contract/validation';
import { ApiError } from '../core/errors';
import {
  answerCheckinOf,
  type CheckinBody,
  expiresAt,
  makeShare,
  revokeShareOf,
  type ShareBody,
  type Shareable,
  type SharePageResult,
  type ShareSettings,
  SHARE_KEPT_HOURS,
  shareSecretHash,
  stateOf,
} from '../plans/share';
import { firstName } from '../profiles/records';
import { holdsSeat, meetupNotFound, meetupStatus } from './records';

interface Target {
  viewerId: string;
  meetupId: string;
}

/** A meetup the viewer holds a seat in (host or confirmed) whose host's account is open; else 404. */
async function viewersMeetup(db: Database, { viewerId, meetupId }: Target): Promise<MeetupRow> {
  if (!isUuid(meetupId)) throw meetupNotFound();
  const row = await db
    .selectFrom('meetups as m')
    .innerJoin('users as h', 'h.id', 'm.host_id')
    .selectAll('m')
    .where('m.id', '=', meetupId)
    .where('h.disabled_at', 'is', null)
    .where(holdsSeat('m', viewerId))
    .executeTakeFirst();
  if (!row) throw meetupNotFound();
  return row;
}

const meetupOf = (meetup: MeetupRow): Shareable => ({
  kind: 'meetup',
  id: meetup.id,
  starts_at: meetup.starts_at,
  ends_at: meetup.ends_at,
});

/** Makes (or remakes: the old link stops) the viewer's share of a meetup not cancelled and not over. */
export async function shareMeetup(
  db: Database,
  target: Target,
  body: ShareBody,
  settings: ShareSettings,
): Promise<ShareState> {
  return db.transaction().execute(async (trx) => {
    // Under the meetup's lock (shared: seats change under its exclusive one), and the seat read
    // after it: a leave either went before (no seat: 404) or comes after and revokes this share.
    if (isUuid(target.meetupId))
      await trx.selectFrom('meetups').select('id').where('id', '=', target.meetupId).forShare().execute();
    const meetup = await viewersMeetup(trx, target);
    const status = meetupStatus(meetup, settings.now ?? new Date());
    if (status === 'cancelled' || status === 'over') {
      throw new ApiError('meetup_not_open', `This meetup is ${status}, so there is nothing to share`, {
        hint: 'Share a meetup you hold a seat in that is not cancelled or over.',
      });
    }
    return makeShare(trx, meetupOf(meetup), target.viewerId, body, settings);
  });
}

export async function meetupShareState(db: Database, target: Target, checkinDelaySeconds: number) {
  return stateOf(db, meetupOf(await viewersMeetup(db, target)), target.viewerId, checkinDelaySeconds);
}

/** Revoked: both links answer 410, check-in stops and the contact's address is forgotten. */
export async function revokeMeetupShare(db: Database, target: Target, checkinDelaySeconds: number) {
  return revokeShareOf(db, meetupOf(await viewersMeetup(db, target)), target.viewerId, checkinDelaySeconds);
}

/** Check-in on or off for the viewer's share of a meetup, or "I'm fine" (which stops it for good). */
export async function answerMeetupCheckin(
  db: Database,
  target: Target,
  body: CheckinBody,
  settings: Omit<ShareSettings, 'baseUrl'>,
) {
  return answerCheckinOf(db, meetupOf(await viewersMeetup(db, target)), target.viewerId, body, settings);
}

// ---------------------------------------------------------------------------
// The page (server/doors/share.tsx renders it)

export interface SharedMeetupView {
  sharerFirstName: string;
  sharerHosts: boolean;
  hostFirstName: string;
  /** The activity's name in the catalog. */
  activity: string;
  startsAt: Date;
  endsAt: Date;
  /** The sharer's zone: the contact most likely lives where they do. */
  zone: string;
  placeName: string;
  placeAddress: string | null;
  /** Everyone holding a seat: the host and the confirmed. */
  going: number;
  expiresAt: Date;
}

/** What a meetup's share link shows now: the meetup, or why it is gone (410), or nothing known (404). */
export async function sharedMeetup(
  db: Database,
  secret: string,
  now = new Date(),
): Promise<SharePageResult<SharedMeetupView>> {
  const hash = shareSecretHash(secret);
  if (!hash) return { kind: 'missing' };
  const row = await db
    .selectFrom('meetup_shares as s')
    .innerJoin('meetups as m', 'm.id', 's.meetup_id')
    .innerJoin('users as me', 'me.id', 's.user_id')
    .innerJoin('users as h', 'h.id', 'm.host_id')
    .select([
      's.revoked_at',
      's.user_id',
      'm.status',
      'm.starts_at',
      'm.ends_at',
      'm.activity',
      'm.place_name',
      'm.place_address',
      'm.host_id',
      'm.confirmed_count',
      'me.display_name as sharer_name',
      'me.timezone as sharer_zone',
      'me.disabled_at as sharer_disabled_at',
      'h.display_name as host_name',
      'h.disabled_at as host_disabled_at',
      holdsSeat('m', sql.ref<string>('s.user_id')).as('sharer_in'),
    ])
    .where((eb) => eb.or([eb('s.secret_hash', '=', hash), eb('s.contact_secret_hash', '=', hash)]))
    .executeTakeFirst();
  if (!row) return { kind: 'missing' };
  const sharer = firstName(row.sharer_name);
  if (!row.sharer_in) return { kind: 'gone', why: `${sharer} is no longer going to this meetup.` };
  if (row.revoked_at) return { kind: 'gone', why: 'The person who shared this meetup turned the link off.' };
  const expires = expiresAt(row);
  if (expires.getTime() <= now.getTime())
    return { kind: 'gone', why: 'This meetup is over, and its page has expired.' };
  if (row.status !== 'open' || row.sharer_disabled_at || row.host_disabled_at) {
    return { kind: 'gone', why: 'This meetup is no longer happening.' };
  }
  return {
    kind: 'ok',
    view: {
      sharerFirstName: sharer,
      sharerHosts: row.host_id === row.user_id,
      hostFirstName: firstName(row.host_name),
      activity: getActivity(row.activity)?.name ?? row.activity.replace(/_/g, ' '),
      startsAt: new Date(row.starts_at),
      endsAt: new Date(row.ends_at),
      zone: row.sharer_zone ?? 'UTC',
      placeName: row.place_name,
      placeAddress: row.place_address,
      going: row.confirmed_count + 1,
      expiresAt: expires,
    },
  };
}

/** Meetups whose "All good?" waits for the person's answer (the home screen shows them). */
export async function waitingMeetupCheckins(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('meetup_shares as s')
    .innerJoin('meetups as m', 'm.id', 's.meetup_id')
    .select('s.meetup_id')
    .where('s.user_id', '=', userId)
    .where('s.checkin', '=', true)
    .where('s.checkin_asked_at', 'is not', null)
    .where('s.checkin_fine_at', 'is', null)
    .where('s.revoked_at', 'is', null)
    .where('m.status', '=', 'open')
    .where(holdsSeat('m', userId))
    .where(sql<boolean>`m.ends_at + make_interval(hours => ${SHARE_KEPT_HOURS}) > now()`)
    .execute();
  return rows.map((row) => row.meetup_id);
}

// Push notifications (SPEC 6): a new message, a new buddy request and an
// acceptance each queue a job in the same transaction as the write; the worker
// builds the notification and hands it to the provider. PUSH_PROVIDER=log (the
// default) records one log line per notification; PUSH_PROVIDER=expo sends it
// through the Expo push service to the devices the app registered. A failed
// send throws, so pg-boss retries it with backoff; the write never waits for it.
//
// Logs never carry message text or device tokens: the text is private to the
// two buddies and a token lets anyone push to that phone.
import { Expo, type ExpoPushMessage } from 'expo-server-sdk';
import type { Database } from '@/db';
import { hasBlocked } from '../blocks/status';
import { logLine } from '../core/log';
import { type MeetupEvent, type PushJob, type PushNotification, pushJobSchema } from './push-job';
import { deliverWebPush, type VapidKeys, type WebPushPolicy } from './web-push';

export { type PushJob, type PushNotification, pushJobSchema } from './push-job';

export interface PushResult {
  sent: number;
  /** Tokens the push service says are gone (app uninstalled); they are deleted. */
  invalidTokens: string[];
  errors: string[];
}

export interface PushProvider {
  name: 'log' | 'expo';
  send(tokens: string[], notification: PushNotification): Promise<PushResult>;
}

const PREVIEW_CHARS = 140;

export function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
}

/** The notification for a job, or null when what it was about no longer exists. */
export async function buildNotification(db: Database, job: PushJob): Promise<PushNotification | null> {
  if (job.kind === 'message') {
    const row = await db
      .selectFrom('messages as m')
      .innerJoin('users as u', 'u.id', 'm.sender_id')
      .innerJoin('chats as c', 'c.id', 'm.chat_id')
      .leftJoin('meetups as mt', 'mt.id', 'c.meetup_id')
      .select(['m.text', 'm.sender_id', 'u.display_name', 'c.meetup_id', 'mt.activity'])
      .where('m.id', '=', job.messageId)
      .executeTakeFirst();
    if (!row) return null;
    // A meetup's group chat: who wrote, in which meetup; the app opens the meetup.
    const group: Record<string, string> = row.meetup_id ? { meetupId: row.meetup_id } : {};
    return {
      kind: job.kind,
      recipientId: job.recipientId,
      actorId: row.sender_id,
      title: row.meetup_id ? `${row.display_name} · ${activityWords(row.activity ?? '')}` : row.display_name,
      body: preview(row.text),
      data: { type: 'message', chatId: job.chatId, messageId: String(job.messageId), ...group },
    };
  }
  if (job.kind === 'meetup') return meetupNotification(db, job);
  if (job.kind === 'meetup_reminder') return meetupReminderNotification(db, job);
  if (job.kind === 'plan') return planNotification(db, job);
  if (job.kind === 'plan_reminder') return reminderNotification(db, job);
  if (job.kind === 'plan_checkin') return checkinNotification(db, job);
  if (job.kind === 'meetup_checkin') return meetupCheckinNotification(db, job);
  const request = await db
    .selectFrom('buddy_requests as r')
    .innerJoin('users as s', 's.id', 'r.sender_id')
    .innerJoin('users as t', 't.id', 'r.recipient_id')
    .select([
      'r.sender_id',
      'r.recipient_id',
      'r.message',
      's.display_name as sender_name',
      't.display_name as recipient_name',
    ])
    .where('r.id', '=', job.requestId)
    .executeTakeFirst();
  if (!request) return null;
  if (job.kind === 'buddy_request') {
    return {
      kind: job.kind,
      recipientId: job.recipientId,
      actorId: request.sender_id,
      title: 'New buddy request',
      body: request.message
        ? `${request.sender_name}: ${preview(request.message)}`
        : `${request.sender_name} wants to be buddies`,
      data: { type: 'buddy_request', requestId: job.requestId },
    };
  }
  return {
    kind: job.kind,
    recipientId: job.recipientId,
    actorId: request.recipient_id,
    title: 'Buddy request accepted',
    body: `${request.recipient_name} accepted your buddy request. Say hi!`,
    data: { type: 'request_accepted', requestId: job.requestId, chatId: job.chatId },
  };
}

const PLAN_TITLES = {
  proposed: (name: string) => `${name} proposes a plan`,
  accepted: (name: string) => `${name} accepted your plan`,
  declined: (name: string) => `${name} declined your plan`,
  cancelled: (name: string) => `${name} cancelled a plan`,
} as const;

/** A plan proposed, accepted, declined or cancelled by the other person (never a block's cancellation). */
async function planNotification(
  db: Database,
  job: Extract<PushJob, { kind: 'plan' }>,
): Promise<PushNotification | null> {
  const plan = await db
    .selectFrom('plans as p')
    .select(['p.activity', 'p.place_name', 'p.proposer_id', 'p.recipient_id'])
    .where('p.id', '=', job.planId)
    .executeTakeFirst();
  if (!plan) return null;
  const actorId = plan.proposer_id === job.recipientId ? plan.recipient_id : plan.proposer_id;
  const actor = await db.selectFrom('users').select('display_name').where('id', '=', actorId).executeTakeFirst();
  if (!actor) return null;
  return {
    kind: job.kind,
    recipientId: job.recipientId,
    actorId,
    title: PLAN_TITLES[job.event](actor.display_name),
    body: preview(`${plan.activity} at ${plan.place_name}`),
    data: { type: 'plan', event: job.event, planId: job.planId, chatId: job.chatId },
  };
}

/** A confirmed plan starting soon (lib/plans/reminders.ts); nothing once it is no longer confirmed. */
async function reminderNotification(
  db: Database,
  job: Extract<PushJob, { kind: 'plan_reminder' }>,
): Promise<PushNotification | null> {
  const plan = await db
    .selectFrom('plans as p')
    .select(['p.activity', 'p.place_name', 'p.proposer_id', 'p.recipient_id', 'p.status'])
    .where('p.id', '=', job.planId)
    .executeTakeFirst();
  if (plan?.status !== 'confirmed') return null;
  const actorId = plan.proposer_id === job.recipientId ? plan.recipient_id : plan.proposer_id;
  const hours = job.minutesBefore / 60;
  const lead = Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'}` : `${job.minutesBefore} minutes`;
  return {
    kind: job.kind,
    recipientId: job.recipientId,
    actorId,
    title: `Your plan starts in ${lead}`,
    body: preview(`${plan.activity} at ${plan.place_name}`),
    data: { type: 'plan_reminder', planId: job.planId, chatId: job.chatId },
  };
}

/** "All good?" during a shared plan (lib/plans/checkins.ts); nothing once answered, revoked or cancelled. */
async function checkinNotification(
  db: Database,
  job: Extract<PushJob, { kind: 'plan_checkin' }>,
): Promise<PushNotification | null> {
  const row = await db
    .selectFrom('plan_shares as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .select(['p.proposer_id', 'p.recipient_id', 'p.status', 's.checkin_fine_at', 's.revoked_at'])
    .where('s.plan_id', '=', job.planId)
    .where('s.user_id', '=', job.recipientId)
    .executeTakeFirst();
  if (row?.status !== 'confirmed' || row.checkin_fine_at || row.revoked_at) return null;
  return {
    kind: job.kind,
    recipientId: job.recipientId,
    actorId: row.proposer_id === job.recipientId ? row.recipient_id : row.proposer_id,
    title: 'All good?',
    body: 'Your check-in: tap to tell us you are fine.',
    data: { type: 'plan_checkin', planId: job.planId },
  };
}

/** "All good?" during a shared meetup; nothing once answered, revoked (the seat given up revokes it) or cancelled. */
async function meetupCheckinNotification(
  db: Database,
  job: Extract<PushJob, { kind: 'meetup_checkin' }>,
): Promise<PushNotification | null> {
  const row = await db
    .selectFrom('meetup_shares as s')
    .innerJoin('meetups as m', 'm.id', 's.meetup_id')
    .select(['m.host_id', 'm.status', 's.checkin_fine_at', 's.revoked_at'])
    .where('s.meetup_id', '=', job.meetupId)
    .where('s.user_id', '=', job.recipientId)
    .executeTakeFirst();
  if (row?.status !== 'open' || row.checkin_fine_at || row.revoked_at) return null;
  return {
    kind: job.kind,
    recipientId: job.recipientId,
    actorId: row.host_id,
    title: 'All good?',
    body: 'Your check-in: tap to tell us you are fine.',
    data: { type: 'meetup_checkin', meetupId: job.meetupId },
  };
}

const activityWords = (id: string) => id.replace(/_/g, ' ');

const MEETUP_TITLES: Record<MeetupEvent, (activity: string) => string> = {
  join_request: (activity) => `Someone asks to join your ${activity} meetup`,
  approved: (activity) => `You're in: ${activity}`,
  declined: (activity) => `Your request to join ${activity} was not approved`,
  promoted: (activity) => `A seat opened up: you're in for ${activity}`,
  offered: (activity) => `A seat is yours for ${activity} if you take it`,
  cancelled: (activity) => `${activity[0]?.toUpperCase() ?? ''}${activity.slice(1)} was cancelled`,
};

/** Something that happened in a meetup to its person (a seat given or offered, a join to approve, a cancel). */
async function meetupNotification(
  db: Database,
  job: Extract<PushJob, { kind: 'meetup' }>,
): Promise<PushNotification | null> {
  const meetup = await db
    .selectFrom('meetups')
    .select(['activity', 'place_name', 'starts_at'])
    .where('id', '=', job.meetupId)
    .executeTakeFirst();
  if (!meetup) return null;
  return {
    kind: job.kind,
    recipientId: job.recipientId,
    actorId: job.actorId,
    title: MEETUP_TITLES[job.event](activityWords(meetup.activity)),
    body: preview(
      job.event === 'offered' ? `Join within 30 minutes to take it · ${meetup.place_name}` : meetup.place_name,
    ),
    data: { type: 'meetup', event: job.event, meetupId: job.meetupId },
  };
}

/** A meetup starting soon, for the host and the confirmed; nothing once cancelled or left. */
async function meetupReminderNotification(
  db: Database,
  job: Extract<PushJob, { kind: 'meetup_reminder' }>,
): Promise<PushNotification | null> {
  const meetup = await db
    .selectFrom('meetups as m')
    .leftJoin('meetup_attendees as a', (join) =>
      join.onRef('a.meetup_id', '=', 'm.id').on('a.user_id', '=', job.recipientId),
    )
    .select(['m.activity', 'm.place_name', 'm.status', 'm.host_id', 'a.status as attendee_status'])
    .where('m.id', '=', job.meetupId)
    .executeTakeFirst();
  if (meetup?.status !== 'open') return null;
  if (meetup.host_id !== job.recipientId && meetup.attendee_status !== 'confirmed') return null;
  const hours = job.minutesBefore / 60;
  const lead = Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'}` : `${job.minutesBefore} minutes`;
  return {
    kind: job.kind,
    recipientId: job.recipientId,
    actorId: meetup.host_id,
    title: `Your meetup starts in ${lead}`,
    body: preview(`${activityWords(meetup.activity)} at ${meetup.place_name}`),
    data: { type: 'meetup_reminder', meetupId: job.meetupId },
  };
}

/** One Expo message per device token, carrying what the app needs to open the right screen. */
export function buildExpoMessages(tokens: readonly string[], notification: PushNotification): ExpoPushMessage[] {
  return tokens.map((to) => ({
    to,
    title: notification.title,
    body: notification.body,
    data: notification.data,
    sound: 'default',
    priority: 'high',
    channelId: notification.kind === 'message' ? 'messages' : 'buddies',
    // Several pushes about one chat collapse into the newest on the device.
    ...(notification.data.chatId ? { collapseId: notification.data.chatId, tag: notification.data.chatId } : {}),
  }));
}

export function logPushProvider(): PushProvider {
  return {
    name: 'log',
    async send(tokens, notification) {
      logLine({
        event: 'push',
        provider: 'log',
        kind: notification.kind,
        recipient_id: notification.recipientId,
        devices: tokens.length,
        data: notification.data,
      });
      return { sent: tokens.length, invalidTokens: [], errors: [] };
    },
  };
}

export function expoPushProvider(accessToken: string | undefined): PushProvider {
  const expo = new Expo(accessToken ? { accessToken } : {});
  return {
    name: 'expo',
    async send(tokens, notification) {
      const valid = tokens.filter((token) => Expo.isExpoPushToken(token));
      const result: PushResult = {
        sent: 0,
        invalidTokens: tokens.filter((token) => !Expo.isExpoPushToken(token)),
        errors: [],
      };
      for (const chunk of expo.chunkPushNotifications(buildExpoMessages(valid, notification))) {
        // Throws when the push service cannot be reached or refuses the request: the job is retried.
        const tickets = await expo.sendPushNotificationsAsync(chunk);
        tickets.forEach((ticket, i) => {
          if (ticket.status === 'ok') {
            result.sent += 1;
          } else if (ticket.details?.error === 'DeviceNotRegistered') {
            result.invalidTokens.push(String(chunk[i]?.to));
          } else {
            result.errors.push(ticket.details?.error ?? ticket.message);
          }
        });
      }
      logLine({
        event: 'push',
        provider: 'expo',
        kind: notification.kind,
        recipient_id: notification.recipientId,
        devices: valid.length,
        sent: result.sent,
        errors: result.errors,
      });
      return result;
    },
  };
}

/**
 * The worker's job: build, check the recipient still wants it, send, forget dead tokens.
 * Returns the notification and how many devices it was for (0: the person has no push, so
 * the caller may mail a digest instead), or null when it was not to be sent at all.
 */
export async function deliverPush(
  db: Database,
  data: unknown,
  provider: PushProvider,
  web?: { vapid: VapidKeys; policy: WebPushPolicy },
): Promise<{ notification: PushNotification; devices: number } | null> {
  const job = pushJobSchema.parse(data);
  const notification = await buildNotification(db, job);
  if (!notification) return null;
  if (await hasBlocked(db, { blockerId: notification.recipientId, blockedId: notification.actorId })) return null;
  if (
    notification.data.chatId &&
    (await chatMuted(db, { chatId: notification.data.chatId, userId: notification.recipientId }))
  )
    return null;
  const browsers = web ? await deliverWebPush(db, notification, web.vapid, web.policy) : 0;
  const tokens = await db
    .selectFrom('push_tokens')
    .select('token')
    .where('user_id', '=', notification.recipientId)
    .orderBy('last_seen_at', 'desc')
    .execute();
  if (tokens.length === 0 && provider.name !== 'log') return { notification, devices: browsers };
  const result = await provider.send(
    tokens.map((t) => t.token),
    notification,
  );
  if (result.invalidTokens.length > 0) {
    await db.deleteFrom('push_tokens').where('token', 'in', result.invalidTokens).execute();
  }
  return { notification, devices: browsers + tokens.length - result.invalidTokens.length };
}

/** The recipient muted this chat: nothing is pushed for it (unread counts still move). */
async function chatMuted(db: Database, { chatId, userId }: { chatId: string; userId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('chat_members')
    .select('muted')
    .where('chat_id', '=', chatId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.muted === true;
}

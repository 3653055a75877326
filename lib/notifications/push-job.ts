// The push job and notification shapes, apart from the sender, so the domains that queue a job
// (buddies, chats, plans) and the Web Push sender import them without importing push.ts.
import { z } from 'zod';

export const MEETUP_EVENTS = ['join_request', 'approved', 'declined', 'promoted', 'offered', 'cancelled'] as const;

export const pushJobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), recipientId: z.string(), chatId: z.string(), messageId: z.number() }),
  z.object({ kind: z.literal('buddy_request'), recipientId: z.string(), requestId: z.string() }),
  z.object({ kind: z.literal('request_accepted'), recipientId: z.string(), requestId: z.string(), chatId: z.string() }),
  z.object({
    kind: z.literal('plan'),
    recipientId: z.string(),
    planId: z.string(),
    chatId: z.string(),
    event: z.enum(['proposed', 'accepted', 'declined', 'cancelled']),
  }),
  z.object({
    kind: z.literal('plan_reminder'),
    recipientId: z.string(),
    planId: z.string(),
    chatId: z.string(),
    minutesBefore: z.number(),
  }),
  z.object({ kind: z.literal('plan_checkin'), recipientId: z.string(), planId: z.string(), chatId: z.string() }),
  z.object({
    kind: z.literal('meetup'),
    recipientId: z.string(),
    meetupId: z.string(),
    /** Who caused it: the joiner for a join to approve, else the host. */
    actorId: z.string(),
    event: z.enum(MEETUP_EVENTS),
  }),
  z.object({ kind: z.literal('meetup_checkin'), recipientId: z.string(), meetupId: z.string() }),
  z.object({
    kind: z.literal('meetup_reminder'),
    recipientId: z.string(),
    meetupId: z.string(),
    minutesBefore: z.number(),
  }),
]);

/** What happened in a meetup that its person is told of by push (and some by mail, lib/meetups/mail.ts). */
export type MeetupEvent = (typeof MEETUP_EVENTS)[number];
export type PushJob = z.infer<typeof pushJobSchema>;

export interface PushNotification {
  kind: PushJob['kind'];
  recipientId: string;
  /** Who caused it; the push is dropped if the recipient has blocked them since. */
  actorId: string;
  title: string;
  body: string;
  /** What the app opens when the notification is tapped. */
  data: Record<string, string>;
}

// What the inbox shows of meetups (issue 45): what waits for the person (a join to approve, a seat
// offered to them), what changed since the cursor (a seat given, a join approved or declined, an
// offer missed, a cancellation), and their group chats with unread messages. Each is bounded and
// driven by an index on the person; the triggers of 0036 bump the inbox version with every change.
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '@/db';
import type { MeetupRecord } from '../contract/meetups';
import { SOCIAL_LIMITS } from '../contract/limits';
import { encodeCursor } from '../chats/cursor';
import { changedAfter, type NewAfter } from '../chats/poll-cursor';
import { messagesUrl, toMessage } from '../chats/records';
import type { MessageRecord } from '../contract/chats';
import { firstName, siteUrl } from '../profiles/records';
import { type MeetupQueryRow, meetupRows, toMeetups } from './records';

export interface InboxMeetups {
  meetups_to_answer: {
    what: 'approve_join' | 'take_seat';
    meetup: MeetupRecord;
    person: { id: string; first_name: string; photoURL: string | null } | null;
  }[];
  meetup_updates: {
    what: 'promoted' | 'approved' | 'declined' | 'seat_missed' | 'cancelled';
    meetup: MeetupRecord;
  }[];
  meetup_chats: {
    chatId: string;
    meetup_id: string;
    activity: string;
    unread_count: number;
    new_messages: MessageRecord[];
    unread_url: string;
  }[];
  /** Something here is new after `after`: wakes a held poll. */
  changed: boolean;
}

export async function inboxMeetups(
  db: Database,
  viewerId: string,
  after: NewAfter,
  { baseUrl, now = new Date() }: { baseUrl: string; now?: Date },
): Promise<InboxMeetups> {
  const limit = SOCIAL_LIMITS.inboxItems;
  const [pending, offers, changes, chats] = await Promise.all([
    // Joins waiting for the host's answer, in meetups not yet started.
    db
      .selectFrom('meetups as m')
      .innerJoin('meetup_attendees as a', 'a.meetup_id', 'm.id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['m.id', 'u.id as person_id', 'u.display_name', 'u.photo_url'])
      .select(changedAfter('a.xid', 'a.updated_at', after).as('unseen'))
      .where('m.host_id', '=', viewerId)
      .where('m.status', '=', 'open')
      .where('m.starts_at', '>', now)
      .where('a.status', '=', 'pending')
      .where('u.disabled_at', 'is', null)
      .orderBy('a.position')
      .limit(limit)
      .execute(),
    // Seats held for the person.
    db
      .selectFrom('meetup_attendees as a')
      .innerJoin('meetups as m', 'm.id', 'a.meetup_id')
      .select(['m.id'])
      .select(changedAfter('a.xid', 'a.updated_at', after).as('unseen'))
      .where('a.user_id', '=', viewerId)
      .where('a.status', '=', 'offered')
      .where('m.status', '=', 'open')
      .where('a.offer_expires_at', '>', now)
      .orderBy('a.offer_expires_at')
      .limit(limit)
      .execute(),
    // What others did to the person's places since the cursor.
    db
      .selectFrom('meetup_attendees as a')
      .innerJoin('meetups as m', 'm.id', 'a.meetup_id')
      .select(['m.id', 'm.status as meetup_status', 'm.join_policy', 'a.status', 'a.seat_given_at'])
      .select(changedAfter('m.xid', 'm.updated_at', after).as('meetup_changed'))
      .where('a.user_id', '=', viewerId)
      .where((eb) =>
        eb.or([
          eb.and([
            changedAfter('a.xid', 'a.updated_at', after),
            eb.or([
              eb('a.status', 'in', ['declined', 'missed']),
              eb.and([eb('a.status', '=', 'confirmed'), eb('a.seat_given_at', 'is not', null)]),
              eb.and([eb('m.join_policy', '=', 'approval'), eb('a.status', 'in', ['confirmed', 'waitlisted'])]),
            ]),
          ]),
          eb.and([
            eb('m.status', '=', 'cancelled'),
            eb('a.status', 'in', ['pending', 'waitlisted', 'offered', 'confirmed']),
            changedAfter('m.xid', 'm.updated_at', after),
          ]),
        ]),
      )
      .orderBy('a.updated_at', 'desc')
      .limit(limit)
      .execute(),
    // Unread group chats, with their newest unread messages.
    db
      .selectFrom('chat_members as cm')
      .innerJoin('chats as c', 'c.id', 'cm.chat_id')
      .innerJoin('meetups as m', 'm.id', 'c.meetup_id')
      .where('cm.user_id', '=', viewerId)
      .where('cm.unread_count', '>', 0)
      .select((eb) => [
        'cm.chat_id',
        'cm.unread_count',
        'cm.last_read_message_id',
        'm.id as meetup_id',
        'm.activity',
        jsonArrayFrom(
          eb
            .selectFrom('messages as msg')
            .select(['msg.id', 'msg.chat_id', 'msg.sender_id', 'msg.text', 'msg.created_at', 'msg.agent_name'])
            .whereRef('msg.chat_id', '=', 'cm.chat_id')
            .whereRef('msg.id', '>', 'cm.last_read_message_id')
            .where('msg.sender_id', '<>', viewerId)
            .where(changedAfter('msg.xid', 'msg.created_at', after))
            .orderBy('msg.id', 'desc')
            .limit(SOCIAL_LIMITS.inboxMessagesPerChat),
        ).as('new_messages'),
      ])
      .orderBy('c.last_message_at', 'desc')
      .limit(limit)
      .execute(),
  ]);

  const ids = [...new Set([...pending.map((r) => r.id), ...offers.map((r) => r.id), ...changes.map((r) => r.id)])];
  const rows =
    ids.length > 0
      ? ((await meetupRows(db, viewerId)
          .where('m.id', 'in', ids)
          // A closed host's meetups vanish, as everywhere (./records.ts visibleTo).
          .where('h.disabled_at', 'is', null)
          .execute()) as MeetupQueryRow[])
      : [];
  const records = new Map((await toMeetups(db, rows, viewerId, baseUrl, now)).map((m) => [m.id, m]));
  const meetupOf = (id: string) => records.get(id)!;
  const shown = <T extends { id: string }>(list: T[]) => list.filter((r) => records.has(r.id));

  const toAnswer: InboxMeetups['meetups_to_answer'] = [
    ...shown(offers).map((r) => ({ what: 'take_seat' as const, meetup: meetupOf(r.id), person: null })),
    ...shown(pending).map((r) => ({
      what: 'approve_join' as const,
      meetup: meetupOf(r.id),
      person: { id: r.person_id, first_name: firstName(r.display_name), photoURL: siteUrl(r.photo_url, baseUrl) },
    })),
  ];
  const updates: InboxMeetups['meetup_updates'] = shown(changes).map((r) => ({
    what:
      r.meetup_status === 'cancelled' && r.meetup_changed
        ? 'cancelled'
        : r.status === 'declined'
          ? 'declined'
          : r.status === 'missed'
            ? 'seat_missed'
            : r.seat_given_at
              ? 'promoted'
              : 'approved',
    meetup: meetupOf(r.id),
  }));
  const groupChats: InboxMeetups['meetup_chats'] = chats.map((r) => ({
    chatId: r.chat_id,
    meetup_id: r.meetup_id,
    activity: r.activity,
    unread_count: r.unread_count,
    new_messages: [...r.new_messages].reverse().map((m) => toMessage(m, viewerId)),
    unread_url: messagesUrl(baseUrl, r.chat_id, { cursor: encodeCursor(Number(r.last_read_message_id)) }),
  }));
  return {
    meetups_to_answer: toAnswer,
    meetup_updates: updates,
    meetup_chats: groupChats,
    changed:
      updates.length > 0 ||
      groupChats.some((c) => c.new_messages.length > 0) ||
      pending.some((r) => r.unseen) ||
      offers.some((r) => r.unseen),
  };
}

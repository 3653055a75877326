// Meetups in the web app (issue 45): one card per meetup in a list, and the words for seats and
// one's place, shared by the list (rendered on the server) and the meetup page (live in the browser).
import type { ChatRecord } from '@/lib/contract/chats';
import type { MeetupFit, MeetupRecord } from '@/lib/contract/meetups';
import { paths } from '@/lib/contract/paths';
import { span } from '@/lib/web/plan-time';
import { Avatar } from './avatar';

/** "Rock climbing" for rock_climbing (the catalog's own name where the page has it). */
export function activityTitle(activity: string, names: Readonly<Record<string, string>> = {}): string {
  const name = names[activity] ?? activity.replace(/_/g, ' ');
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** When, on the reader's clock ("Thu 4 Jun, 19:00–21:00"). */
export function meetupWhen(meetup: Pick<MeetupRecord, 'starts_at' | 'ends_at'>, zone: string | null): string {
  return `${span(new Date(meetup.starts_at), new Date(meetup.ends_at), zone ?? 'UTC')}${zone ? '' : ' UTC'}`;
}

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** The seats in words: "2 of 4 seats left", "Full · 3 waiting". */
export function seatsText(meetup: Pick<MeetupRecord, 'seats_left' | 'capacity' | 'waitlist'>): string {
  if (meetup.seats_left > 0)
    return `${meetup.seats_left} of ${meetup.capacity} seat${meetup.capacity === 1 ? '' : 's'} left`;
  return meetup.waitlist > 0 ? `Full · ${meetup.waitlist} waiting` : 'Full';
}

/** Where the reader stands, in words, or null when they hold no place. */
export function placeText(meetup: MeetupRecord, zone: string | null): string | null {
  const { me } = meetup;
  if (meetup.status === 'cancelled') return 'This meetup was cancelled.';
  switch (me.role) {
    case 'host':
      return 'You host this meetup.';
    case 'confirmed':
      return 'You’re in.';
    case 'waitlisted':
      return me.waitlist_position
        ? `You’re ${ordinal(me.waitlist_position)} on the waitlist. If a seat frees up, it’s yours and we’ll tell you.`
        : 'You’re on the waitlist.';
    case 'offered':
      return `A seat is held for you until ${
        me.offer_expires_at
          ? span(new Date(me.offer_expires_at), new Date(me.offer_expires_at), zone ?? 'UTC').split('–')[0]
          : 'soon'
      }. Take it, or it goes to the next person waiting.`;
    case 'pending':
      return 'You asked to join; the host will answer.';
    case 'declined':
      return 'The host didn’t approve your request.';
    case 'missed':
      return 'The seat offered to you went to the next person. You can join again.';
    default:
      return null;
  }
}

export function MeetupCard({
  meetup,
  fit,
  zone,
  names,
}: {
  meetup: MeetupRecord;
  fit: MeetupFit | null;
  zone: string | null;
  names: Readonly<Record<string, string>>;
}) {
  const title = activityTitle(meetup.activity, names);
  const place = [meetup.place.name, meetup.place.area].filter(Boolean).join(' · ');
  const mine = placeText(meetup, zone);
  return (
    <article className="card meetup-card" aria-labelledby={`meetup-${meetup.id}`}>
      <div className="person">
        <Avatar name={meetup.host.first_name} photoURL={meetup.host.photoURL} size="small" />
        <div className="person-text">
          <h3 id={`meetup-${meetup.id}`}>
            <a href={`/account/meetups/${encodeURIComponent(meetup.id)}`}>{title}</a>
          </h3>
          <p className="muted small">
            {meetupWhen(meetup, zone)} · {place}
          </p>
        </div>
      </div>
      <p className="meetup-seats">
        {meetup.status === 'cancelled' ? 'Cancelled' : seatsText(meetup)}
        {meetup.status === 'cancelled' ? null : ` · hosted by ${meetup.host.first_name}`}
      </p>
      {mine && meetup.status !== 'cancelled' ? <p className="small">{mine}</p> : null}
      {fit ? <p className="muted small">{fit.why.join(' · ')}</p> : null}
    </article>
  );
}

/** A meetup's group chat: what the header says, where back leads, and the members' first names by id. */
export interface GroupChat {
  title: string;
  place: string | null;
  backHref: string;
  names: Readonly<Record<string, string>>;
}

/** The chat record a group thread is drawn from: the meetup stands where the buddy would. */
// Here, not in chat-thread.tsx: the page calls it on the server, and a client module's functions are
// only references there.
export function groupChatRecord(chatId: string, group: GroupChat): ChatRecord {
  const at = new Date(0).toISOString();
  return {
    chatId,
    buddy: { id: '', slug: '', displayName: group.title, photoURL: null, location: group.place, profile_url: '' },
    last_message: null,
    unread_count: 0,
    created_at: at,
    last_activity_at: at,
    messages_url: paths.messages({ chatId }),
  };
}

// How the web pages say when something happened: relative while recent ("5 min ago"),
// then a date. Pure, so server and browser agree and it is testable.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const sameYear = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short' });
const otherYear = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' });
const clock = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' });

/** "just now", "5 min ago", "3 h ago", "yesterday", "12 Nov", "12 Nov 2025" (in the reader's time zone). */
export function relativeTime(value: Date, now: Date): string {
  const ago = now.getTime() - value.getTime();
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 2 * DAY) return 'yesterday';
  return (value.getFullYear() === now.getFullYear() ? sameYear : otherYear).format(value);
}

/** The time of day of a chat message ("2:05 PM"), after the calendar day when it is not today. */
export function messageTime(value: Date, now: Date): string {
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (value.toDateString() === now.toDateString()) return clock.format(value);
  const day =
    value.toDateString() === yesterday.toDateString()
      ? 'yesterday'
      : (value.getFullYear() === now.getFullYear() ? sameYear : otherYear).format(value);
  return `${day}, ${clock.format(value)}`;
}

const weekday = new Intl.DateTimeFormat('en', { weekday: 'long', day: 'numeric', month: 'short' });
const fullDate = new Intl.DateTimeFormat('en', { weekday: 'long', day: 'numeric', month: 'short', year: 'numeric' });

/** The calendar day of `value` in the reader's time zone, as a key: messages of one day share it. */
export function dayKey(value: Date): string {
  return value.toDateString();
}

/** A chat's date separator: "Today", "Yesterday", "Wednesday, 12 Nov", "Friday, 3 Jan 2025". */
export function dayLabel(value: Date, now: Date): string {
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (dayKey(value) === dayKey(now)) return 'Today';
  if (dayKey(value) === dayKey(yesterday)) return 'Yesterday';
  return (value.getFullYear() === now.getFullYear() ? weekday : fullDate).format(value);
}

/** Just the time of day ("2:05 PM"), where a date separator already says the day. */
export function clockTime(value: Date): string {
  return clock.format(value);
}

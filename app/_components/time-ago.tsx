'use client';
// A moment shown relative to now in the reader's time zone ("5 min ago"), kept current.
// The server cannot know the zone, so the first render (server and hydration) shows the
// UTC date-time and the browser swaps in the local wording once mounted.
import { useEffect, useState } from 'react';
import { messageTime, relativeTime } from '@/lib/web/time';

const utc = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

function useNow(): Date | null {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function TimeAgo({ value, style = 'relative' }: { value: string; style?: 'relative' | 'clock' }) {
  const now = useNow();
  const date = new Date(value);
  const text =
    now === null ? `${utc.format(date)} UTC` : style === 'clock' ? messageTime(date, now) : relativeTime(date, now);
  return (
    <time dateTime={value} title={now === null ? undefined : date.toLocaleString()}>
      {text}
    </time>
  );
}

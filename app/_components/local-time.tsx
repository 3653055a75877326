'use client';
// A date and time in the reader's own locale and time zone ("25 Nov 2026, 14:05").
// The server cannot know either, so the first render (server and hydration) shows the
// time in UTC and says so; the browser swaps in its local wording once mounted.
import { useEffect, useState } from 'react';

const utc = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export function LocalTime({ value }: { value: string }) {
  const date = new Date(value);
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setLocal(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value)));
  }, [value]);
  return <time dateTime={date.toISOString()}>{local ?? `${utc.format(date)} UTC`}</time>;
}

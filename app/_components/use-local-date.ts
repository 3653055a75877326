import { useEffect, useState } from 'react';

/** A date (YYYY-MM-DD or a moment) in the browser's language; null until mounted (the server cannot know it). */
export function useLocalDate(value: string | null, withTime: boolean): string | null {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (!value) return setText(null);
    const date = new Date(withTime ? value : `${value}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) return setText(null);
    const format = withTime
      ? new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' })
      : new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' });
    setText(format.format(date));
  }, [value, withTime]);
  return text;
}

// When something happens, as a mail says it: in the recipient's own zone, named by its
// place ("Mexico City time") rather than by an offset ("GMT-6") that few people read at a
// glance (issue 43 §6). Fixed wording: the zone is the recipient's own setting.

/** "America/Mexico_City" → "Mexico City time"; UTC (or no zone) → "UTC". */
export function zoneInWords(zone: string | null): string {
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return 'UTC';
  const place = zone.split('/').pop() ?? zone;
  return `${place.replace(/_/g, ' ')} time`;
}

/** "Saturday 5 December at 10:00 (Mexico City time)". */
export function mailWhen(at: Date, zone: string | null): string {
  const timeZone = zone ?? 'UTC';
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone, ...options }).format(at);
  const day = format({ weekday: 'long', day: 'numeric', month: 'long' });
  const time = format({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day} at ${time} (${zoneInWords(zone)})`;
}

// Clock arithmetic (hours as decimals, 0-24)
import type { Clock } from './tokens';

/** A time-of-day endpoint: a clock reading or a named time ("noon", "lunch"). */
export type Endpoint = { kind: 'clock'; clock: Clock } | { kind: 'named'; start: number; end: number };

/** The hour if the endpoint says am/pm or is 24-hour or named; null if a bare hour. */
function explicitHour(e: Endpoint, role: 'start' | 'end'): number | null {
  if (e.kind === 'named') return role === 'start' ? e.start : e.end;
  const { hour, minute, meridiem, clock24 } = e.clock;
  if (clock24) return hour + minute / 60;
  if (meridiem) return (hour % 12) + (meridiem === 'pm' ? 12 : 0) + minute / 60;
  return null;
}

/**
 * Guesses a lone bare hour: 8-11 am, 12 noon, 1-7 pm; after "after", 1-9 pm. Seven is evening:
 * people arranging to meet write "at 7:30" for the evening and "7am" when they mean the morning.
 */
function guessHour(clock: Clock, bias: 'after' | 'default'): number {
  const { hour, minute } = clock;
  if (hour === 12) return 12 + minute / 60;
  const pm = bias === 'after' ? hour <= 9 : hour <= 7;
  return hour + (pm ? 12 : 0) + minute / 60;
}

export function pointHour(e: Endpoint, role: 'start' | 'end', bias: 'after' | 'default'): number {
  const explicit = explicitHour(e, role);
  if (explicit !== null) return explicit;
  return e.kind === 'clock' ? guessHour(e.clock, bias) : 0;
}

/** The two readings of a bare hour, preferred one first. */
function readings(clock: Clock, pmFirst: boolean): [number, number] {
  const base = (clock.hour % 12) + clock.minute / 60;
  return pmFirst ? [base + 12, base] : [base, base + 12];
}

/** Resolves "A-B" to [start, end) hours; an end past midnight is clamped to 24. */
export function rangeHours(a: Endpoint, b: Endpoint): [number, number] {
  const aHour = explicitHour(a, 'start');
  let bHour = explicitHour(b, 'end');
  if (bHour === 0) bHour = 24; // "12am" / "00:00" as an end is midnight
  if (aHour !== null && bHour !== null) return [aHour, bHour > aHour ? bHour : 24];
  if (bHour !== null && a.kind === 'clock') {
    // "7 to 10pm": the start shares the end's am/pm unless that puts it after the end.
    const options = readings(a.clock, bHour >= 12);
    const fit = options.find((h) => h < bHour);
    return fit !== undefined ? [fit, bHour] : [Math.max(...options), 24];
  }
  const start = aHour ?? pointHour(a, 'start', 'default');
  if (b.kind !== 'clock') return [start, 24];
  // "10am-2", "9-5": the first reading of the end that comes after the start.
  const options = readings(b.clock, start >= 12);
  const fit = options.find((h) => h > start);
  return [start, fit ?? 24];
}

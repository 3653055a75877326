import { describe, expect, it } from 'vitest';
import { countSlots, emptyGrid, fillSlots, type Grid } from './grid';
import {
  formatInstant,
  freeIntervals,
  gridOffsetHours,
  pairZones,
  shiftGrid,
  sharedIntervals,
  utcOffsetMinutes,
  weeklyOverlap,
} from './zoned';

const SAT = 5;
const SUN = 6;
/** slot of a local clock hour */
const at = (hour: number) => hour - 6;
const grid = (...runs: [day: number, from: number, to: number][]): Grid => {
  const g = emptyGrid();
  for (const [day, from, to] of runs) fillSlots(g, [day], at(from), at(to) - 1);
  return g;
};
const iso = (intervals: { start: Date; end: Date }[]) =>
  intervals.map((i) => `${i.start.toISOString().slice(0, 16)}/${i.end.toISOString().slice(11, 16)}`);

describe('offsets', () => {
  it('reads exact offsets, daylight saving included', () => {
    expect(utcOffsetMinutes('Europe/Lisbon', new Date('2026-07-01T12:00:00Z'))).toBe(60);
    expect(utcOffsetMinutes('Europe/Lisbon', new Date('2026-12-01T12:00:00Z'))).toBe(0);
    expect(utcOffsetMinutes('America/New_York', new Date('2026-11-02T12:00:00Z'))).toBe(-300);
    expect(utcOffsetMinutes('Asia/Kolkata', new Date('2026-11-02T12:00:00Z'))).toBe(330);
    expect(utcOffsetMinutes('UTC', new Date())).toBe(0);
  });

  it('rounds half-hour offsets to the hour, halves up', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    expect(gridOffsetHours('Asia/Kolkata', now)).toBe(6);
    expect(gridOffsetHours('Asia/Kathmandu', now)).toBe(6);
    expect(gridOffsetHours('America/St_Johns', now)).toBe(-3);
    expect(gridOffsetHours('Europe/Madrid', now)).toBe(1);
  });

  it('lends a person without a zone the other one, and UTC when neither has one', () => {
    expect(pairZones(null, 'Europe/Madrid')).toEqual(['Europe/Madrid', 'Europe/Madrid']);
    expect(pairZones('Asia/Tokyo', null)).toEqual(['Asia/Tokyo', 'Asia/Tokyo']);
    expect(pairZones(null, null)).toEqual(['UTC', 'UTC']);
  });
});

describe('shiftGrid', () => {
  it('moves hours later on the clock, across midnight and around the week', () => {
    const shifted = shiftGrid(grid([SUN, 22, 24]), 2); // Sunday 22-24 → Monday 0-2: before 6am, dropped
    expect(countSlots(shifted)).toBe(0);
    expect(shiftGrid(grid([SAT, 9, 12]), -1)).toEqual(grid([SAT, 8, 11]));
    expect(shiftGrid(grid([SUN, 20, 24]), 9)).toEqual(grid([0, 6, 9])); // Sunday 20-24 +9 → Monday 5-9, 5am dropped
  });

  it('drops what lands before 6am', () => {
    expect(shiftGrid(grid([SAT, 6, 10]), -2)).toEqual(grid([SAT, 6, 8]));
  });
});

describe('weeklyOverlap', () => {
  // Both free Saturday 9-12 on their own clocks: Madrid's 9-12 is Lisbon's 8-11.
  const lisbon = { grid: grid([SAT, 9, 12]), timezone: 'Europe/Lisbon' };
  const madrid = { grid: grid([SAT, 9, 12]), timezone: 'Europe/Madrid' };
  const now = new Date('2026-11-26T12:00:00Z');

  it('shifts the other grid by the zones’ difference on either side of a border', () => {
    expect(weeklyOverlap(lisbon, madrid, now)).toEqual(grid([SAT, 9, 11]));
    expect(weeklyOverlap(madrid, lisbon, now)).toEqual(grid([SAT, 10, 12]));
  });

  it('counts the same hours whoever reads', () => {
    expect(countSlots(weeklyOverlap(lisbon, madrid, now))).toBe(2);
    expect(countSlots(weeklyOverlap(madrid, lisbon, now))).toBe(2);
  });

  it('is the plain intersection in one zone', () => {
    expect(weeklyOverlap(lisbon, { ...madrid, timezone: 'Europe/Lisbon' }, now)).toEqual(grid([SAT, 9, 12]));
  });

  it('follows the current offsets: New York and London are 5 hours apart, 4 in the weeks between DST changes', () => {
    const ny = { grid: grid([SAT, 8, 14]), timezone: 'America/New_York' }; // 13:00-19:00 London in winter
    const london = { grid: grid([SAT, 13, 20]), timezone: 'Europe/London' };
    expect(weeklyOverlap(london, ny, new Date('2026-12-01T12:00:00Z'))).toEqual(grid([SAT, 13, 19]));
    // 2026-10-27: London is back on GMT, New York still on EDT (changes 1 Nov).
    expect(weeklyOverlap(london, ny, new Date('2026-10-27T12:00:00Z'))).toEqual(grid([SAT, 13, 18]));
  });

  it('rounds Kolkata’s +5:30 to +6 against UTC', () => {
    const kolkata = { grid: grid([SAT, 12, 15]), timezone: 'Asia/Kolkata' };
    const utc = { grid: grid([SAT, 6, 10]), timezone: 'UTC' };
    expect(weeklyOverlap(utc, kolkata, now)).toEqual(grid([SAT, 6, 9]));
  });
});

describe('freeIntervals', () => {
  it('lists whole UTC hours, DST handled: London Saturday 9-12 before and after the October change', () => {
    const london = { grid: grid([SAT, 9, 12]), timezone: 'Europe/London' };
    const from = new Date('2026-10-17T00:00:00Z');
    const to = new Date('2026-11-01T00:00:00Z');
    expect(iso(freeIntervals(london, from, to))).toEqual([
      '2026-10-17T08:00/11:00', // BST (+1)
      '2026-10-24T08:00/11:00', // BST until 25 Oct
      '2026-10-31T09:00/12:00', // GMT
    ]);
  });

  it('keeps only whole hours inside the range', () => {
    const london = { grid: grid([SAT, 9, 12]), timezone: 'Europe/London' };
    const hours = freeIntervals(london, new Date('2026-10-31T09:30:00Z'), new Date('2026-10-31T11:30:00Z'));
    expect(iso(hours)).toEqual(['2026-10-31T10:00/11:00']);
  });

  it('rounds a half-hour zone to whole UTC hours', () => {
    const kolkata = { grid: grid([SAT, 9, 11]), timezone: 'Asia/Kolkata' };
    const hours = freeIntervals(kolkata, new Date('2026-11-28T00:00:00Z'), new Date('2026-11-29T00:00:00Z'));
    expect(iso(hours)).toEqual(['2026-11-28T03:00/05:00']);
    expect(formatInstant(hours[0]!.start, 'Asia/Kolkata')).toBe('2026-11-28T08:30:00+05:30');
  });
});

describe('sharedIntervals', () => {
  it('finds the hours both are free on the dates in question, on each one’s clock', () => {
    const nyAfternoon = { grid: grid([SAT, 8, 14]), timezone: 'America/New_York' };
    const londonSat = { grid: grid([SAT, 13, 20]), timezone: 'Europe/London' };
    const from = new Date('2026-10-24T00:00:00Z');
    const to = new Date('2026-11-08T00:00:00Z');
    expect(iso(sharedIntervals(nyAfternoon, londonSat, from, to))).toEqual([
      '2026-10-24T12:00/18:00', // both on summer time: 5 h apart (NY 8-14 = 12-18Z; London 13-20 BST = 12-19Z)
      '2026-10-31T13:00/18:00', // London on GMT, NY still EDT: 4 h apart (NY 12-18Z; London 13-20Z)
      '2026-11-07T13:00/19:00', // both on winter time: 5 h apart (NY 13-19Z; London 13-20Z)
    ]);
  });

  it('is symmetric', () => {
    const a = { grid: grid([SAT, 9, 12]), timezone: 'Europe/Lisbon' };
    const b = { grid: grid([SAT, 9, 12]), timezone: 'Europe/Madrid' };
    const from = new Date('2026-11-27T00:00:00Z');
    const to = new Date('2026-11-30T00:00:00Z');
    expect(sharedIntervals(a, b, from, to)).toEqual(sharedIntervals(b, a, from, to));
    expect(iso(sharedIntervals(a, b, from, to))).toEqual(['2026-11-28T09:00/11:00']);
  });
});

describe('formatInstant', () => {
  it('writes ISO 8601 with the zone’s offset on that date', () => {
    const t = new Date('2026-11-28T08:00:00Z');
    expect(formatInstant(t, 'Europe/Madrid')).toBe('2026-11-28T09:00:00+01:00');
    expect(formatInstant(t, 'America/New_York')).toBe('2026-11-28T03:00:00-05:00');
    expect(formatInstant(t, 'UTC')).toBe('2026-11-28T08:00:00+00:00');
    expect(formatInstant(new Date('2026-07-01T08:00:00Z'), 'Europe/Madrid')).toBe('2026-07-01T10:00:00+02:00');
    expect(new Date(formatInstant(t, 'Asia/Kathmandu')).getTime()).toBe(t.getTime());
  });
});

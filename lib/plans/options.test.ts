// Issue 43 §6: plan options read "Monday 17–Tuesday 0" and offered a 6:00 Sunday start.
import { describe, expect, it } from 'vitest';
import { describeFree, sensibleStart } from './options';

const at = (iso: string) => new Date(iso);
const zone = 'America/Mexico_City'; // UTC-6 all year

describe('describeFree', () => {
  it('says midnight for a block that ends as the next day begins', () => {
    expect(describeFree({ start: at('2026-12-07T23:00:00Z'), end: at('2026-12-08T06:00:00Z') }, zone)).toBe(
      "You're both free Monday 17–midnight",
    );
  });
  it('names the next day for a block that runs past midnight', () => {
    expect(describeFree({ start: at('2026-12-08T04:00:00Z'), end: at('2026-12-08T08:30:00Z') }, zone)).toBe(
      "You're both free Monday 22–Tuesday 2:30",
    );
  });
});

describe('sensibleStart', () => {
  it('starts a block that begins at dawn at 9, where the option still fits', () => {
    const sundayMorning = { start: at('2026-12-06T12:00:00Z'), end: at('2026-12-06T18:00:00Z') }; // 6–12
    expect(sensibleStart(sundayMorning, zone).toISOString()).toBe('2026-12-06T15:00:00.000Z'); // 9:00
  });
  it('keeps the start of an early block too short to move, and of a block starting at 9 or later', () => {
    const early = { start: at('2026-12-06T12:00:00Z'), end: at('2026-12-06T16:00:00Z') }; // 6–10
    expect(sensibleStart(early, zone)).toEqual(early.start);
    const evening = { start: at('2026-12-07T00:00:00Z'), end: at('2026-12-07T04:00:00Z') }; // 18–22
    expect(sensibleStart(evening, zone)).toEqual(evening.start);
  });
});

import { describe, expect, it } from 'vitest';
import { isoInstant } from './time';

describe('isoInstant', () => {
  const instant = new Date('2026-07-04T08:30:15.000Z');

  it('is UTC with Z without a zone', () => {
    expect(isoInstant(instant)).toBe('2026-07-04T08:30:15.000Z');
  });

  it.each([
    ['Europe/Vienna', '2026-07-04T10:30:15+02:00'],
    ['America/New_York', '2026-07-04T04:30:15-04:00'],
    ['Asia/Kolkata', '2026-07-04T14:00:15+05:30'],
    ['America/St_Johns', '2026-07-04T06:00:15-02:30'],
    ['UTC', '2026-07-04T08:30:15+00:00'],
  ])('shows the offset of %s on that date', (zone, expected) => {
    expect(isoInstant(instant, zone)).toBe(expected);
    expect(Date.parse(isoInstant(instant, zone))).toBe(Date.parse('2026-07-04T08:30:15Z'));
  });

  it('follows daylight saving', () => {
    expect(isoInstant(new Date('2026-01-10T09:00:00Z'), 'Europe/Vienna')).toBe('2026-01-10T10:00:00+01:00');
  });

  it('falls back to UTC for an unknown zone', () => {
    expect(isoInstant(instant, 'Mars/Olympus')).toBe('2026-07-04T08:30:15.000Z');
  });
});

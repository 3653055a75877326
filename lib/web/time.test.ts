import { describe, expect, it } from 'vitest';
import { dayLabel, messageTime, relativeTime } from './time';

const now = new Date(2026, 10, 22, 15, 30);
const before = (ms: number) => new Date(now.getTime() - ms);

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [60_000, '1 min ago'],
    [59 * 60_000, '59 min ago'],
    [3 * 3_600_000, '3 h ago'],
    [30 * 3_600_000, 'yesterday'],
  ])('%i ms ago reads "%s"', (ms, text) => {
    expect(relativeTime(before(ms), now)).toBe(text);
  });

  it('names the day beyond yesterday, and the year when it differs', () => {
    expect(relativeTime(new Date(2026, 10, 12, 9), now)).toBe('Nov 12');
    expect(relativeTime(new Date(2025, 10, 12, 9), now)).toBe('Nov 12, 2025');
  });
});

describe('messageTime', () => {
  it('shows only the clock for today and adds the day otherwise', () => {
    expect(messageTime(new Date(2026, 10, 22, 9, 5), now)).toBe('9:05 AM');
    expect(messageTime(new Date(2026, 10, 21, 20, 0), now)).toBe('yesterday, 8:00 PM');
    expect(messageTime(new Date(2026, 10, 2, 7, 30), now)).toBe('Nov 2, 7:30 AM');
  });
});

describe('dayLabel', () => {
  const now = new Date(2026, 10, 25, 15, 0);
  it('names today and yesterday, then the weekday and date, with the year only when it differs', () => {
    expect(dayLabel(new Date(2026, 10, 25, 0, 1), now)).toBe('Today');
    expect(dayLabel(new Date(2026, 10, 24, 23, 59), now)).toBe('Yesterday');
    expect(dayLabel(new Date(2026, 10, 18, 12, 0), now)).toMatch(/^Wednesday,? (18 Nov|Nov 18)$/);
    expect(dayLabel(new Date(2025, 0, 3, 12, 0), now)).toMatch(/^Friday,? .*2025$/);
  });
});

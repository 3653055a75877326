import { describe, expect, it } from 'vitest';
import { mailWhen, zoneInWords } from './mail-time';

describe('mailWhen', () => {
  const at = new Date('2026-12-05T16:00:00Z');
  it.each([
    ['America/Mexico_City', 'Saturday 5 December at 10:00 (Mexico City time)'],
    ['Europe/London', 'Saturday 5 December at 16:00 (London time)'],
    ['Asia/Kolkata', 'Saturday 5 December at 21:30 (Kolkata time)'],
    ['Pacific/Auckland', 'Sunday 6 December at 05:00 (Auckland time)'],
    [null, 'Saturday 5 December at 16:00 (UTC)'],
  ])('says a time in %s by its place, not its offset', (zone, words) => {
    expect(mailWhen(at, zone)).toBe(words);
  });

  it('names Indiana and Argentina zones by their city', () => {
    expect(zoneInWords('America/Argentina/Buenos_Aires')).toBe('Buenos Aires time');
    expect(zoneInWords('America/Indiana/Indianapolis')).toBe('Indianapolis time');
    expect(zoneInWords('Etc/UTC')).toBe('UTC');
  });
});

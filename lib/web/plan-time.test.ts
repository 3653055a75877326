import { describe, expect, it } from 'vitest';
import { planWhen, span, zonedInstant } from './plan-time';

describe('planWhen', () => {
  it('says the time in the reader’s zone, and the buddy’s where their clock differs', () => {
    const when = planWhen('2026-11-28T09:00:00Z', '2026-11-28T11:00:00Z', 'Europe/Madrid', 'Europe/Lisbon', 'Bea');
    expect(when.mine).toBe('Sat 28 Nov, 10:00–12:00');
    expect(when.theirs).toBe('Sat 28 Nov, 09:00–11:00 for Bea (Lisbon time)');
  });

  it('says nothing more where both clocks agree, and UTC where the reader has no zone', () => {
    expect(planWhen('2026-11-28T09:00:00Z', '2026-11-28T11:00:00Z', 'Europe/Madrid', 'Europe/Paris', 'B').theirs).toBe(
      null,
    );
    expect(planWhen('2026-11-28T09:00:00Z', '2026-11-28T11:00:00Z', null, null, 'B').mine).toBe(
      'Sat 28 Nov, 09:00–11:00 UTC',
    );
  });

  it('names the end’s day when the plan runs past midnight', () => {
    expect(span(new Date('2026-11-28T22:00:00Z'), new Date('2026-11-29T01:00:00Z'), 'UTC')).toBe(
      'Sat 28 Nov, 22:00–Sun 29 Nov, 01:00',
    );
  });
});

describe('zonedInstant', () => {
  it('reads a typed date and time in the zone, daylight saving included', () => {
    expect(zonedInstant('2026-11-28', '10:00', 'Europe/Madrid')).toBe('2026-11-28T10:00:00+01:00');
    expect(zonedInstant('2026-07-01', '10:00', 'Europe/Madrid')).toBe('2026-07-01T10:00:00+02:00');
    expect(zonedInstant('2026-07-01', '10:00', 'Asia/Kolkata')).toBe('2026-07-01T10:00:00+05:30');
    expect(zonedInstant('2026-07-01', '10:00', null)).toBe('2026-07-01T10:00:00+00:00');
    expect(zonedInstant('', '10:00', 'UTC')).toBe(null);
  });
});

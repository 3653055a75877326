import { describe, expect, it } from 'vitest';
import { instantOn } from './time';

describe('instantOn', () => {
  it('keeps an instant with an offset as it is', () => {
    expect(instantOn('2026-06-04T19:00:00+02:00', 'America/New_York').toISOString()).toBe('2026-06-04T17:00:00.000Z');
    expect(instantOn('2026-06-04T19:00:00Z', 'Europe/Berlin').toISOString()).toBe('2026-06-04T19:00:00.000Z');
  });

  it("reads a time without an offset on the host's clock, daylight saving included", () => {
    expect(instantOn('2026-06-04T19:00', 'Europe/Berlin').toISOString()).toBe('2026-06-04T17:00:00.000Z');
    expect(instantOn('2026-01-08T19:00:00', 'Europe/Berlin').toISOString()).toBe('2026-01-08T18:00:00.000Z');
    expect(instantOn('2026-06-04T19:00', 'America/New_York').toISOString()).toBe('2026-06-04T23:00:00.000Z');
    expect(instantOn('2026-06-04T19:00', null).toISOString()).toBe('2026-06-04T19:00:00.000Z');
  });

  it('moves a time skipped by a spring-forward change past the gap', () => {
    // Europe/Berlin skips 02:00-03:00 on 29 March 2026.
    expect(instantOn('2026-03-29T02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });
});

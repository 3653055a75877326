import { describe, expect, it } from 'vitest';
import { gridToBits, mapGrid, resolveAvailability } from './index';
import { at, gridOf, MON, SAT, SUN, WEEKEND } from '@/e2e/support/availability/test-helpers';

describe('resolveAvailability', () => {
  it('returns nulls when no form is given', () => {
    expect(resolveAvailability({})).toEqual({ grid: null, summary: null, unparsed: [], rounded: [], corrected: [] });
    expect(resolveAvailability({ availability_text: '   ' })).toEqual({
      grid: null,
      summary: null,
      unparsed: [],
      rounded: [],
      corrected: [],
    });
  });

  it('parses availability_text and reports unparsed fragments', () => {
    const result = resolveAvailability({ availability_text: 'weekends and Wednesday evenings, maybe when it rains' });
    // Issue 44 §3: the condition narrows Wednesday evenings in a way the service cannot read, so they are
    // left out (never wider than offered) and the words come back.
    expect(gridToBits(result.grid ?? [])).toBe(gridToBits(gridOf(at(WEEKEND, 6, 24))));
    expect(result.summary).toBe('Saturday and Sunday, all day');
    expect(result.unparsed).toEqual(['when it rains']);
  });

  it('accepts the schedule map and array forms', () => {
    const fromMap = resolveAvailability({ schedule: { '0_0': true } });
    expect(gridToBits(fromMap.grid ?? [])).toBe(gridToBits(gridOf(at([MON], 6, 7))));
    expect(fromMap.summary).toBe('Monday 6am–7am');
    const fromArray = resolveAvailability({ schedule: mapGrid((d) => d === SUN) });
    expect(fromArray.summary).toBe('Sunday, all day');
  });

  it('expands the legacy list', () => {
    const result = resolveAvailability({ availability: [{ day: 'sat', period: 'morning' }] });
    expect(result.summary).toBe('Saturday morning (6am–noon)');
  });

  it('ORs every form given', () => {
    const result = resolveAvailability({
      availability_text: 'Sunday mornings',
      schedule: { '5_17': true },
      availability: [{ day: 'mon', period: 'evening' }],
    });
    expect(gridToBits(result.grid ?? [])).toBe(
      gridToBits(gridOf(at([SUN], 6, 12), at([SAT], 23, 24), at([MON], 17, 24))),
    );
    expect(result.unparsed).toEqual([]);
  });

  it('gives an empty grid (not null) for an empty structured form', () => {
    const result = resolveAvailability({ availability: [] });
    expect(result.grid).not.toBeNull();
    expect(gridToBits(result.grid ?? [])).toBe('0'.repeat(126));
    expect(result.summary).toBe('No availability set');
  });

  it('rejects a malformed schedule', () => {
    expect(() => resolveAvailability({ schedule: { '9_9': true } })).toThrow(/slot key/);
  });
});

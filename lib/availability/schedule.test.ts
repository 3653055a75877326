import { describe, expect, it } from 'vitest';
import { gridToBits, mapGrid } from './grid';
import {
  gridFromLegacyAvailability,
  legacyAvailabilitySchema,
  scheduleFromInput,
  scheduleInputSchema,
} from './schedule';
import { at, gridOf, MON, SAT, SUN, WED } from '@/e2e/support/availability/test-helpers';

const rows = (days: number, slots: number, value: unknown = false): unknown[][] =>
  Array.from({ length: days }, () => Array.from({ length: slots }, () => value));

/** The messages of a failed parse, flattened, for asserting that they are helpful. */
function messages(input: unknown): string {
  const result = scheduleInputSchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? '' : result.error.issues.map((i) => i.message).join(' | ');
}

describe('scheduleFromInput: array form', () => {
  it('copies a boolean[7][18] grid', () => {
    const grid = mapGrid((d, s) => (d === SAT && s < 6) || (d === MON && s === 17));
    expect(gridToBits(scheduleFromInput(grid))).toBe(gridToBits(gridOf(at([SAT], 6, 12), at([MON], 23, 24))));
  });

  it('accepts an all-false grid', () => {
    expect(gridToBits(scheduleFromInput(rows(7, 18) as boolean[][]))).toBe('0'.repeat(126));
  });

  it('does not alias the input', () => {
    const input = rows(7, 18) as boolean[][];
    const grid = scheduleFromInput(input);
    input[0]![0] = true;
    expect(grid[0]![0]).toBe(false);
  });
});

describe('scheduleFromInput: map form', () => {
  it('sets the true "<day>_<slot>" keys only', () => {
    const grid = scheduleFromInput({ '5_3': true, '6_17': true, '0_0': false, '2_10': true });
    expect(gridToBits(grid)).toBe(gridToBits(gridOf(at([SAT], 9, 10), at([SUN], 23, 24), at([WED], 16, 17))));
  });

  it('accepts an empty map', () => {
    expect(gridToBits(scheduleFromInput({}))).toBe('0'.repeat(126));
  });

  it('throws a ZodError for invalid input', () => {
    expect(() => scheduleFromInput({ '7_0': true })).toThrow(/slot key/);
  });
});

describe('scheduleInputSchema', () => {
  it.each([
    ['a 7x18 boolean array', rows(7, 18)],
    ['a map of valid keys', { '0_0': true, '6_17': false, '3_9': true, '4_10': true, '1_15': true }],
    ['an empty map', {}],
  ])('accepts %s', (_, input) => {
    expect(scheduleInputSchema.safeParse(input).success).toBe(true);
  });

  it.each([
    ['6 days', rows(6, 18), /exactly 7 days/],
    ['8 days', rows(8, 18), /exactly 7 days/],
    ['17 slots', rows(7, 17), /exactly 18 slots/],
    ['19 slots', rows(7, 19), /exactly 18 slots/],
    ['non-boolean slots', rows(7, 18, 1), /day 0 slot 0: each slot must be true or false/],
    ['a day that is not an array', [...rows(6, 18), 'x'], /day 6: each day must be an array of 18 booleans/],
    ['day 7', { '7_0': true }, /invalid slot key "7_0"/],
    ['slot 18', { '0_18': true }, /invalid slot key "0_18"/],
    ['a leading zero', { '0_01': true }, /invalid slot key/],
    ['a missing underscore', { '03': true }, /invalid slot key/],
    ['a day name key', { mon_3: true }, /invalid slot key/],
    ['a non-boolean value', { '1_1': 'yes' }, /"1_1": each slot must be true or false/],
    ['a string', 'weekends', /7 arrays of 18 booleans/],
    ['a number', 42, /7 arrays of 18 booleans/],
    ['null', null, /7 arrays of 18 booleans/],
  ])('rejects %s with a clear message', (_, input, message) => {
    expect(messages(input)).toMatch(message);
  });
});

describe('legacy availability', () => {
  it('expands {day, period} items using the period contract', () => {
    const grid = gridFromLegacyAvailability([
      { day: 'sat', period: 'morning' },
      { day: 'sun', period: 'afternoon' },
      { day: 'mon', period: 'evening' },
      { day: 'mon', period: 'evening' },
    ]);
    expect(gridToBits(grid)).toBe(gridToBits(gridOf(at([SAT], 6, 12), at([SUN], 12, 17), at([MON], 17, 24))));
  });

  it('accepts an empty list as an empty grid', () => {
    expect(gridToBits(gridFromLegacyAvailability([]))).toBe('0'.repeat(126));
  });

  it.each([
    ['an unknown day', [{ day: 'monday', period: 'morning' }]],
    ['an unknown period', [{ day: 'mon', period: 'night' }]],
    ['an extra key (strict)', [{ day: 'mon', period: 'morning', slot: 3 }]],
    ['a missing period', [{ day: 'mon' }]],
    ['a non-array', { day: 'mon', period: 'morning' }],
  ])('rejects %s', (_, input) => {
    expect(legacyAvailabilitySchema.safeParse(input).success).toBe(false);
  });
});

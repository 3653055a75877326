import { describe, expect, it } from 'vitest';
import { emptyGrid, fullGrid } from './grid';
import { parseAvailabilityText } from './parse';
import { describeDays, describeSlots, formatHour, joinList, summarizeGrid } from './summary';
import {
  at,
  EVERY_DAY,
  FRI,
  gridOf,
  MON,
  SAT,
  SUN,
  THU,
  TUE,
  WED,
  WEEKDAYS,
  WEEKEND,
  type Block,
} from '@/e2e/support/availability/test-helpers';

describe('summarizeGrid', () => {
  it.each([
    ['nothing', [], 'No availability set'],
    ['weekends', [at(WEEKEND, 6, 24)], 'Saturday and Sunday, all day'],
    ['every day', [at(EVERY_DAY, 6, 24)], 'Every day, all day'],
    ['weekdays all day', [at(WEEKDAYS, 6, 24)], 'Weekdays, all day'],
    [
      'weekday evenings after 6 + Saturday morning',
      [at(WEEKDAYS, 18, 24), at([SAT], 6, 12)],
      'Weekdays 6pm–midnight; Saturday morning',
    ],
    ['Tue/Thu evenings', [at([TUE, THU], 17, 24)], 'Tuesday and Thursday evenings (5pm–midnight)'],
    ['one evening', [at([WED], 17, 24)], 'Wednesday evening (5pm–midnight)'],
    ['every evening', [at(EVERY_DAY, 17, 24)], 'Every evening (5pm–midnight)'],
    [
      'every morning and evening',
      [at(EVERY_DAY, 6, 12), at(EVERY_DAY, 17, 24)],
      'Every morning (6am–noon) and evening (5pm–midnight)',
    ],
    ['weekend mornings', [at(WEEKEND, 6, 12)], 'Weekend mornings (6am–noon)'],
    ['weekend 10-2', [at(WEEKEND, 10, 14)], 'Weekends 10am–2pm'],
    ['Sunday 10-2', [at([SUN], 10, 14)], 'Sunday 10am–2pm'],
    ['Saturday 10-noon', [at([SAT], 10, 12)], 'Saturday 10am–noon'],
    ['single slot', [at([MON], 23, 24)], 'Monday 11pm–midnight'],
    ['Mon/Wed/Fri 10-2', [at([MON, WED, FRI], 10, 14)], 'Monday, Wednesday and Friday 10am–2pm'],
    ['Mon-Thu mornings', [at([MON, TUE, WED, THU], 6, 12)], 'Monday–Thursday mornings (6am–noon)'],
    ['Fri-Mon all day', [at([FRI, SAT, SUN, MON], 6, 24)], 'Monday and Friday–Sunday, all day'],
    ['morning + afternoon run', [at(EVERY_DAY, 6, 17)], 'Every day 6am–5pm'],
    ['range and period', [at(WEEKDAYS, 7, 9), at(WEEKDAYS, 17, 24)], 'Weekdays 7am–9am and evenings (5pm–midnight)'],
    [
      'weekday evenings + weekends',
      [at(WEEKDAYS, 17, 24), at(WEEKEND, 6, 24)],
      'Weekday evenings; Saturday and Sunday, all day',
    ],
    [
      'three groups',
      [at([MON], 6, 12), at([WED], 18, 21), at([SAT, SUN], 12, 17)],
      'Monday morning; Wednesday 6pm–9pm; Weekend afternoons',
    ],
    [
      'weekday lunch + weekend afternoons and evenings',
      [at(WEEKDAYS, 12, 14), at(WEEKEND, 12, 24)],
      'Weekdays noon–2pm; Weekends noon–midnight',
    ],
  ] as const)('%s', (_, blocks: readonly Block[], summary) => {
    expect(summarizeGrid(gridOf(...blocks))).toBe(summary);
  });

  it('handles empty and full grids', () => {
    expect(summarizeGrid(emptyGrid())).toBe('No availability set');
    expect(summarizeGrid(fullGrid())).toBe('Every day, all day');
  });

  it('reads parsed text back', () => {
    expect(summarizeGrid(parseAvailabilityText('weekends and Wednesday evenings').grid)).toBe(
      'Wednesday evening; Saturday and Sunday, all day',
    );
    expect(summarizeGrid(parseAvailabilityText('Mon-Fri after 6pm; Saturday mornings').grid)).toBe(
      'Weekdays 6pm–midnight; Saturday morning',
    );
  });
});

describe('summary helpers', () => {
  it('formatHour', () => {
    expect([6, 11, 12, 13, 17, 23, 24, 0].map(formatHour)).toEqual([
      '6am',
      '11am',
      'noon',
      '1pm',
      '5pm',
      '11pm',
      'midnight',
      'midnight',
    ]);
  });

  it('joinList', () => {
    expect(joinList([])).toBe('');
    expect(joinList(['a'])).toBe('a');
    expect(joinList(['a', 'b'])).toBe('a and b');
    expect(joinList(['a', 'b', 'c'])).toBe('a, b and c');
  });

  it('describeSlots', () => {
    const row = (from: number, to: number): boolean[] =>
      Array.from({ length: 18 }, (_, s) => s + 6 >= from && s + 6 < to);
    expect(describeSlots(row(6, 24))).toBe('all day');
    expect(describeSlots(row(17, 24))).toBe('evening');
    expect(describeSlots(row(17, 24), { plural: true, hours: true })).toBe('evenings (5pm–midnight)');
    expect(describeSlots(row(10, 14))).toBe('10am–2pm');
    expect(describeSlots(row(0, 0))).toBe('');
  });

  it('describeDays', () => {
    expect(describeDays(EVERY_DAY)).toBe('Every day');
    expect(describeDays(WEEKDAYS)).toBe('Weekdays');
    expect(describeDays(WEEKEND)).toBe('Weekends');
    expect(describeDays([THU, TUE])).toBe('Tuesday and Thursday');
    expect(describeDays([MON, TUE, WED, FRI])).toBe('Monday–Wednesday and Friday');
  });
});

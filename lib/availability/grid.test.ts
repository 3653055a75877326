import { describe, expect, it } from 'vitest';
import {
  bitsToGrid,
  countSlots,
  DAY_KEYS,
  DAY_NAMES,
  DAYS,
  emptyGrid,
  fullGrid,
  gridToBits,
  intersectGrids,
  mapGrid,
  mergeGrids,
  PERIODS,
  SLOTS,
  subtractGrids,
} from './grid';
import { at, gridOf, SAT, seededRandom, SUN, WEEKEND } from '@/e2e/support/availability/test-helpers';

describe('grid constants', () => {
  it('is 7 days x 18 slots with Monday first', () => {
    expect(DAYS).toBe(7);
    expect(SLOTS).toBe(18);
    expect(DAY_NAMES).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(DAY_KEYS).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
  });

  it('defines the period contract as inclusive slot ranges', () => {
    expect(PERIODS).toEqual({ morning: [0, 5], afternoon: [6, 10], evening: [11, 17] });
  });
});

describe('emptyGrid', () => {
  it('is 7 rows of 18 false', () => {
    const g = emptyGrid();
    expect(g).toHaveLength(7);
    for (const row of g) expect(row).toEqual(Array(18).fill(false));
  });

  it('returns independent rows', () => {
    const g = emptyGrid();
    g[0]![0] = true;
    expect(g[1]![0]).toBe(false);
    expect(emptyGrid()[0]![0]).toBe(false);
  });
});

describe('gridToBits / bitsToGrid', () => {
  it('encodes day-major: bit index = day * 18 + slot', () => {
    const g = emptyGrid();
    g[SAT]![3] = true; // Saturday 9-10am
    const bits = gridToBits(g);
    expect(bits).toHaveLength(126);
    expect(bits.indexOf('1')).toBe(5 * 18 + 3);
    expect(bits.replace(/0/g, '')).toBe('1');
  });

  it('encodes empty and full grids', () => {
    expect(gridToBits(emptyGrid())).toBe('0'.repeat(126));
    expect(gridToBits(fullGrid())).toBe('1'.repeat(126));
  });

  it('encodes weekends as the last 36 bits', () => {
    expect(gridToBits(gridOf(at(WEEKEND, 6, 24)))).toBe('0'.repeat(90) + '1'.repeat(36));
  });

  it('round-trips random grids', () => {
    const random = seededRandom(42);
    for (let n = 0; n < 200; n++) {
      const g = mapGrid(() => random() < 0.3);
      const bits = gridToBits(g);
      expect(bitsToGrid(bits)).toEqual(g);
      expect(gridToBits(bitsToGrid(bits))).toBe(bits);
    }
  });

  it.each([
    ['too short', '0'.repeat(125)],
    ['too long', '0'.repeat(127)],
    ['bad character', `${'0'.repeat(125)}2`],
    ['empty', ''],
  ])('rejects %s', (_, bits) => {
    expect(() => bitsToGrid(bits)).toThrow(RangeError);
  });
});

describe('set operations', () => {
  const saturday = gridOf(at([SAT], 6, 24));
  const mornings = gridOf(at([0, 1, 2, 3, 4, 5, 6], 6, 12));

  it('mergeGrids ORs any number of grids', () => {
    const merged = mergeGrids(saturday, mornings);
    expect(countSlots(merged)).toBe(18 + 6 * 6);
    expect(gridToBits(mergeGrids())).toBe('0'.repeat(126));
    expect(mergeGrids(saturday)).toEqual(saturday);
  });

  it('intersectGrids ANDs two grids', () => {
    expect(intersectGrids(saturday, mornings)).toEqual(gridOf(at([SAT], 6, 12)));
    expect(countSlots(intersectGrids(saturday, gridOf(at([SUN], 6, 24))))).toBe(0);
  });

  it('subtractGrids removes cells', () => {
    expect(subtractGrids(saturday, mornings)).toEqual(gridOf(at([SAT], 12, 24)));
  });

  it('countSlots counts true cells', () => {
    expect(countSlots(emptyGrid())).toBe(0);
    expect(countSlots(fullGrid())).toBe(126);
    expect(countSlots(gridOf(at(WEEKEND, 17, 24)))).toBe(14);
  });
});

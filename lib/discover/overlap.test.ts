import { describe, expect, it } from 'vitest';
import { bitsToGrid, countSlots, emptyGrid, fillSlots, gridToBits, parseAvailabilityText } from '../availability';
import { shiftGrid } from '../availability/zoned';
import { describeSharedTime, freeTogether, NO_SHARED_TIME, readerGridByZone, sharedWindows } from './overlap';

describe('sharedWindows', () => {
  it('lists each run of consecutive free hours, Monday first, as clock times', () => {
    const grid = emptyGrid();
    fillSlots(grid, [5], 0, 5); // Saturday 6am-noon
    fillSlots(grid, [2], 12, 14); // Wednesday 6pm-9pm
    fillSlots(grid, [2], 17, 17); // Wednesday 11pm-midnight
    expect(sharedWindows(grid)).toEqual([
      { day: 'wed', start: '18:00', end: '21:00', hours: 3 },
      { day: 'wed', start: '23:00', end: '24:00', hours: 1 },
      { day: 'sat', start: '06:00', end: '12:00', hours: 6 },
    ]);
  });

  it('is empty for an empty grid', () => {
    expect(sharedWindows(emptyGrid())).toEqual([]);
  });

  it('covers a whole day as one window', () => {
    expect(sharedWindows(parseAvailabilityText('Sunday').grid)).toEqual([
      { day: 'sun', start: '06:00', end: '24:00', hours: 18 },
    ]);
  });
});

describe('describeSharedTime', () => {
  it('reads shared time in plain English', () => {
    expect(describeSharedTime(parseAvailabilityText('Saturday mornings and Wednesday evenings').grid)).toBe(
      'Wednesday evening; Saturday morning',
    );
  });

  it('says there is no shared time instead of the profile wording', () => {
    expect(describeSharedTime(emptyGrid())).toBe(NO_SHARED_TIME);
  });
});

describe('freeTogether', () => {
  const saturday9to12 = gridToBits(parseAvailabilityText('Saturday 9am-12pm').grid);
  const now = new Date('2026-11-26T12:00:00Z');

  it('reads each grid on its own clock and shows the hours on the reader’s', () => {
    const lisbon = { schedule: saturday9to12, timezone: 'Europe/Lisbon' };
    const madrid = { schedule: saturday9to12, timezone: 'Europe/Madrid' };
    expect(sharedWindows(freeTogether(lisbon, madrid, now))).toEqual([
      { day: 'sat', start: '09:00', end: '11:00', hours: 2 },
    ]);
    expect(sharedWindows(freeTogether(madrid, lisbon, now))).toEqual([
      { day: 'sat', start: '10:00', end: '12:00', hours: 2 },
    ]);
  });

  it('takes someone without a zone to live on the other’s clock', () => {
    const lisbon = { schedule: saturday9to12, timezone: 'Europe/Lisbon' };
    const unplaced = { schedule: saturday9to12, timezone: null };
    expect(countSlots(freeTogether(lisbon, unplaced, now))).toBe(3);
    expect(countSlots(freeTogether(unplaced, lisbon, now))).toBe(3);
  });
});

describe('readerGridByZone', () => {
  const grid = parseAvailabilityText('Saturday 9am-12pm').grid;
  const now = new Date('2026-11-26T12:00:00Z');

  it('gives the reader’s grid on each other clock, and nothing for zones on the reader’s', () => {
    const { grids, indexByZone } = readerGridByZone(grid, 'Europe/Lisbon', now);
    expect(indexByZone['Europe/Lisbon']).toBeUndefined();
    expect(indexByZone['Europe/London']).toBeUndefined(); // same offset in winter
    expect(bitsToGrid(grids[indexByZone['Europe/Madrid']! - 1]!)).toEqual(shiftGrid(grid, 1));
    expect(bitsToGrid(grids[indexByZone['Asia/Kolkata']! - 1]!)).toEqual(shiftGrid(grid, 6));
    expect(indexByZone['Europe/Paris']).toBe(indexByZone['Europe/Madrid']);
  });

  it('compares a reader without a zone with everyone as they are', () => {
    expect(readerGridByZone(grid, null, now)).toEqual({ grids: [], indexByZone: {} });
  });

  it('follows daylight saving: London and Lisbon share a clock, New York is 4 or 5 hours behind', () => {
    const october = readerGridByZone(grid, 'Europe/London', new Date('2026-10-27T12:00:00Z'));
    const december = readerGridByZone(grid, 'Europe/London', new Date('2026-12-01T12:00:00Z'));
    expect(bitsToGrid(october.grids[october.indexByZone['America/New_York']! - 1]!)).toEqual(shiftGrid(grid, -4));
    expect(bitsToGrid(december.grids[december.indexByZone['America/New_York']! - 1]!)).toEqual(shiftGrid(grid, -5));
  });
});

import { describe, expect, it } from 'vitest';
import { emptyGrid, fillSlots, parseAvailabilityText } from '../availability';
import { describeSharedTime, NO_SHARED_TIME, sharedWindows } from './overlap';

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

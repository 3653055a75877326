import { describe, expect, it } from 'vitest';
import { emptyGrid, mapGrid, PERIOD_NAMES, PERIODS } from '../availability/grid';
import { seededRandom } from '../seeded-random';
import { gridFromText, partsOfDay, textFromGrid, togglePart } from './free-time-grid';

describe('the free-time grid of the profile editor', () => {
  it('reads text into parts of days: free, partly free, busy', () => {
    const parts = partsOfDay(gridFromText('weekends and Wednesday evenings, Tuesday 7pm-9pm'));
    expect(parts[2]).toEqual(['busy', 'busy', 'free']);
    expect(parts[1]).toEqual(['busy', 'busy', 'some']);
    expect(parts[5]).toEqual(['free', 'free', 'free']);
    expect(parts[0]).toEqual(['busy', 'busy', 'busy']);
  });

  it('taps a part on, off, and a partly free part wholly on', () => {
    const monMorning = togglePart(emptyGrid(), 0, 'morning');
    expect(textFromGrid(monMorning)).toBe('Monday morning (6am–noon)');
    expect(textFromGrid(togglePart(monMorning, 0, 'morning'))).toBe('');
    const partly = gridFromText('Tuesday 7pm-9pm');
    expect(partsOfDay(togglePart(partly, 1, 'evening'))[1]).toEqual(['busy', 'busy', 'free']);
  });

  it('writes text the parser reads back to the same grid, for any week of parts', () => {
    const random = seededRandom(17);
    for (let i = 0; i < 1000; i++) {
      const mask = Math.floor(random() * (1 << 21));
      const grid = mapGrid((d, s) =>
        PERIOD_NAMES.some((p, k) => ((mask >> (d * 3 + k)) & 1) === 1 && s >= PERIODS[p][0] && s <= PERIODS[p][1]),
      );
      const text = textFromGrid(grid);
      expect(gridFromText(text), text).toEqual(grid);
    }
  }, 30_000);

  it('keeps hours that are not whole parts when another part is tapped', () => {
    const grid = togglePart(gridFromText('Tuesday 10am-2pm'), 5, 'morning');
    expect(gridFromText(textFromGrid(grid))).toEqual(grid);
    expect(partsOfDay(grid)[1]).toEqual(['some', 'some', 'busy']);
  });
});

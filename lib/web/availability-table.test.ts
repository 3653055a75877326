import { describe, expect, it } from 'vitest';
import { emptyGrid, fillSlots, fullGrid, parseAvailabilityText } from '../availability';
import { availabilityTable, PERIOD_HEADINGS } from './availability-table';

describe('availabilityTable', () => {
  it('marks whole periods free and leaves the rest empty', () => {
    const rows = availabilityTable(parseAvailabilityText('weekends and Wednesday evenings').grid);
    expect(rows.map((r) => r.day)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    expect(rows[2]!.cells.map((c) => c.state)).toEqual(['none', 'none', 'free']);
    expect(rows[5]!.cells.map((c) => c.text)).toEqual(['Free', 'Free', 'Free']);
    expect(rows[0]!.cells.every((c) => c.state === 'none' && c.text === 'Not free')).toBe(true);
  });

  it('spells out part of a period as hours', () => {
    // Monday 9am-11am (slots 3-4) and 8pm-10pm (slots 14-15).
    const grid = fillSlots(fillSlots(emptyGrid(), [0], 3, 4), [0], 14, 15);
    const monday = availabilityTable(grid)[0]!;
    expect(monday.cells[0]).toEqual({ period: 'morning', state: 'some', text: '9am–11am' });
    expect(monday.cells[1]!.state).toBe('none');
    expect(monday.cells[2]).toEqual({ period: 'evening', state: 'some', text: '8pm–10pm' });
  });

  it('covers every slot of a full grid', () => {
    expect(
      availabilityTable(fullGrid())
        .flatMap((r) => r.cells)
        .every((c) => c.state === 'free'),
    ).toBe(true);
    expect(PERIOD_HEADINGS.evening).toEqual({ name: 'Evening', hours: '5pm–midnight' });
  });
});

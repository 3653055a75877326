'use client';
// The week as buttons to tap (days x morning/afternoon/evening), beside the availability
// text and in step with it both ways: the buttons show what the text means (read with
// lib/availability's parser), and tapping one rewrites the text in the summary's words,
// which that parser reads back to the same week. A part of a day only partly free (say
// "Tuesday 7pm–9pm") shows as partly pressed; tapping it makes it wholly free.
import { useMemo } from 'react';
import { DAY_NAMES, PERIOD_NAMES, PERIODS, FIRST_HOUR, type Period } from '@/lib/availability/grid';
import { formatHour } from '@/lib/availability/summary';
import { gridFromText, partsOfDay, textFromGrid, togglePart } from '@/lib/web/free-time-grid';

const PART_WORDS: Record<Period, string> = { morning: 'Morning', afternoon: 'Afternoon', evening: 'Evening' };
const hoursOf = (period: Period) =>
  `${formatHour(PERIODS[period][0] + FIRST_HOUR)}–${formatHour(PERIODS[period][1] + 1 + FIRST_HOUR)}`;

export function FreeTimeGrid({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const grid = useMemo(() => gridFromText(text), [text]);
  const parts = partsOfDay(grid);
  return (
    <div className="free-grid-wrap">
      <table className="free-grid" aria-describedby="free-grid-key">
        <caption>Tap the parts of the week you’re usually free</caption>
        <thead>
          <tr>
            <td />
            {PERIOD_NAMES.map((period) => (
              <th key={period} scope="col">
                {PART_WORDS[period]}
                <span className="hours">{hoursOf(period)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {DAY_NAMES.map((day, d) => (
            <tr key={day}>
              <th scope="row">
                <abbr title={day}>{day.slice(0, 3)}</abbr>
              </th>
              {PERIOD_NAMES.map((period, p) => {
                const state = parts[d]![p]!;
                return (
                  <td key={period}>
                    <button
                      type="button"
                      className={`free-cell free-cell-${state}`}
                      aria-pressed={state === 'free' ? true : state === 'some' ? 'mixed' : false}
                      aria-label={`${day} ${period}`}
                      onClick={() => onChange(textFromGrid(togglePart(grid, d, period)))}
                    >
                      <span aria-hidden="true">{state === 'free' ? '✓' : state === 'some' ? '½' : ''}</span>
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {/* What the marks mean, said once under the week. */}
      <p className="help" id="free-grid-key">
        ✓ free then · ½ free for part of it (tap to make it all) · empty: not free
      </p>
    </div>
  );
}

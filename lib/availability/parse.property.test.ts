// Properties of the availability parser (issue 36): what agents read aloud parses back exactly,
// clause order does not matter, and words it does not know never add free time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAYS, emptyGrid, fillSlots, FIRST_HOUR, gridToBits, type Grid } from './grid';
import { MAX_TEXT_LENGTH, parseAvailabilityText } from './parse';
import { summarizeGrid } from './summary';

const SEED = 36;
const dayIndex = fc.integer({ min: 0, max: DAYS - 1 });

/** A few blocks of days x hours: grids shaped like real weeks, so most summaries fit 500 chars. */
const gridArb: fc.Arbitrary<Grid> = fc
  .array(
    fc.record({
      days: fc.uniqueArray(dayIndex, { minLength: 1, maxLength: DAYS }),
      from: fc.integer({ min: FIRST_HOUR, max: 23 }),
      length: fc.integer({ min: 1, max: 18 }),
    }),
    { minLength: 0, maxLength: 4 },
  )
  .map((blocks) => {
    const grid = emptyGrid();
    for (const b of blocks) fillSlots(grid, b.days, b.from - FIRST_HOUR, b.from - FIRST_HOUR + b.length - 1);
    return grid;
  });

const bits = (text: string): string => gridToBits(parseAvailabilityText(text).grid);
const isSubset = (inner: string, outer: string): boolean => [...inner].every((b, i) => b === '0' || outer[i] === '1');

/** Self-contained clauses (each names its days before its time), as people join them at the top level. */
const CLAUSES = [
  'weekday evenings',
  'Saturday mornings',
  'sun 10am-2pm',
  'Tue and Thu evenings',
  'friday after 6pm',
  'Monday 7-9am',
  'weekend afternoons',
  'Wednesday all day',
  'sat 18:00-21:00',
  'Thursday lunchtime',
  'weeknights after 8',
  'Sunday from 7 to 9pm',
];

describe('parseAvailabilityText properties', () => {
  it('round trip: parse(summary(grid)) is the grid', () => {
    fc.assert(
      fc.property(gridArb, (grid) => {
        const summary = summarizeGrid(grid);
        fc.pre(summary.length <= MAX_TEXT_LENGTH);
        const parsed = parseAvailabilityText(summary);
        expect(parsed.unparsed).toEqual([]);
        expect(gridToBits(parsed.grid)).toBe(gridToBits(grid));
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('order: permuting top-level clauses does not change the grid', () => {
    const clauses = fc.uniqueArray(fc.constantFrom(...CLAUSES), { minLength: 2, maxLength: 5 });
    const joiner = fc.constantFrom(', ', ' and ', '; ', ', and ', ' plus ');
    fc.assert(
      fc.property(clauses, joiner, fc.infiniteStream(fc.nat()), (list, join, randoms) => {
        const shuffled = [...list].sort(() => (randoms.next().value % 3) - 1);
        expect(bits(shuffled.join(join))).toBe(bits(list.join(join)));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('robustness: junk words never widen a grid and are always reported', () => {
    const phrase = fc.oneof(
      fc.uniqueArray(fc.constantFrom(...CLAUSES), { minLength: 1, maxLength: 3 }).map((l) => l.join(', ')),
      gridArb.map(summarizeGrid).filter((s) => s.length <= 300),
      fc.constantFrom(
        'weekday evenings except Wednesdays and Sunday mornings',
        'weekends but not Sundays',
        'every day except Mon, Tue',
        'mornings before work, and all day saturday',
      ),
    );
    const junk = fc.stringMatching(/^[bcdfgjkqvxz]{4,8}$/);
    fc.assert(
      fc.property(phrase, fc.array(fc.tuple(fc.nat(), junk), { minLength: 1, maxLength: 3 }), (text, inserts) => {
        const words = text.split(' ');
        for (const [at, word] of inserts) words.splice(at % (words.length + 1), 0, word);
        const noisy = words.join(' ');
        const result = parseAvailabilityText(noisy);
        expect(isSubset(gridToBits(result.grid), bits(text))).toBe(true);
        const reported = result.unparsed.join(' ');
        for (const [, word] of inserts) expect(reported).toContain(word);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  // Issue 44 §3: "whenever the moon is blue" was read as every day, all day.
  it('conditions: a "whenever" clause with words left over adds nothing, and the words are reported', () => {
    const phrase = fc.uniqueArray(fc.constantFrom(...CLAUSES), { minLength: 0, maxLength: 3 }).map((l) => l.join(', '));
    const condition = fc
      .array(fc.stringMatching(/^[bcdfgjkqvxz]{4,8}$/), { minLength: 1, maxLength: 3 })
      .chain((words) =>
        fc
          .tuple(fc.constantFrom('the', 'my', 'it is', ''), fc.constant(words.join(' ')))
          .map(([lead, w]) => `${lead} ${w}`.trim()),
      );
    const joiner = fc.constantFrom(', and ', ', ', ' and ', '; ');
    fc.assert(
      fc.property(phrase, condition, joiner, fc.boolean(), (text, words, join, first) => {
        const clause = `whenever ${words}`;
        const noisy = text ? (first ? `${clause}${join}${text}` : `${text}${join}${clause}`) : clause;
        const result = parseAvailabilityText(noisy);
        expect(gridToBits(result.grid)).toBe(bits(text));
        expect(result.unparsed.join(' ')).toContain(words.split(' ').at(-1));
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('conditions: "if", "when" or "unless" after a clause leaves that clause out, never widening, and the words are reported', () => {
    const clauses = fc.uniqueArray(fc.constantFrom(...CLAUSES), { minLength: 1, maxLength: 3 });
    const condition = fc.tuple(
      fc.constantFrom('if', 'when', 'unless'),
      fc.array(fc.stringMatching(/^[bcdfgjkqvxz]{4,8}$/), { minLength: 1, maxLength: 3 }),
    );
    const joiner = fc.constantFrom(', ', '; ', ', and ', ' and ');
    fc.assert(
      fc.property(
        clauses,
        condition,
        fc.nat(),
        fc.constantFrom(' ', ', '),
        joiner,
        (list, [word, junk], at, before, join) => {
          const i = at % list.length;
          const conditioned = list.map((clause, k) =>
            k === i ? `${clause}${before}${word} ${junk.join(' ')}` : clause,
          );
          const text = conditioned.join(join);
          const result = parseAvailabilityText(text);
          expect(isSubset(gridToBits(result.grid), bits(list.join(join)))).toBe(true);
          // The conditioned clause is left out, and the others hold as they would alone.
          const others = list.filter((_, k) => k !== i);
          expect(gridToBits(result.grid)).toBe(bits(others.join(join)));
          expect(result.unparsed.join(' ')).toContain(junk.at(-1));
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });
});

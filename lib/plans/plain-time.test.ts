// Plan times in the person's words (issue 44 §2): each phrase read on a fixed calendar, the
// ambiguous and the unreadable refused with the fix, and no input that throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LocalMoment, readPlainTime } from './plain-time';

// Wednesday 2 December 2026, 09:30 on the person's clock.
const TODAY: LocalMoment = { year: 2026, month: 12, day: 2, hour: 9, minute: 30 };
const at = (day: number, hour: number, minute = 0, month = 12, year = 2026) => ({ year, month, day, hour, minute });

describe('readPlainTime', () => {
  it.each([
    ['next Saturday 10am', at(5, 10), null],
    ['tomorrow at 7pm', at(3, 19), null],
    ['Sat 10–13', at(5, 10), at(5, 13)],
    ['sat 10-13', at(5, 10), at(5, 13)],
    ['this evening', at(2, 19), null],
    ['tonight at 8', at(2, 20), null],
    ['this wednesday 7pm', at(2, 19), null],
    ['next wednesday 7pm', at(9, 19), null],
    ['Friday 7-9pm', at(4, 19), at(4, 21)],
    ['Friday 10-1pm', at(4, 10), at(4, 13)],
    ['fri 12-3pm', at(4, 12), at(4, 15)],
    ['sat 10am-1', at(5, 10), at(5, 13)],
    ['sat 7pm to 9', at(5, 19), at(5, 21)],
    ['sat 22-1', at(5, 22), at(6, 1)],
    ['8 December 7pm', at(8, 19), null],
    ['December 8th at 19:00', at(8, 19), null],
    ['8th of december 18:30', at(8, 18, 30), null],
    ['Dec 8 2026, 7 p.m.', at(8, 19), null],
    ['2026-12-08 19:00', at(8, 19), null],
    ['noon tomorrow', at(3, 12), null],
    ['saturday morning', at(5, 10), null],
    ['tomorrow afternoon at 3', at(3, 15), null],
    ['sat 07:30', at(5, 7, 30), null],
    ['Sunday from 13 until 16', at(6, 13), at(6, 16)],
    ['January 3 10am', at(3, 10, 0, 1, 2027), null],
    ['thurs 6:45pm', at(3, 18, 45), null],
  ])('%s', (text, start, end) => {
    const reading = readPlainTime(text, TODAY);
    expect(reading).toMatchObject({ ok: true, start, end });
  });

  it('says how it read a part of the day without a time', () => {
    expect(readPlainTime('this evening', TODAY)).toMatchObject({
      read: 'Wednesday 2 December 2026, 19:00 (no time given: the evening read as 19:00)',
    });
  });

  it.each([
    ['wednesday 7pm', /"wednesday" is today: say "today" or "next wednesday"/],
    ['tomorrow at 7', /could be morning or evening: say 7am or 7pm \(or 19:00\)/],
    ['sat 7:30', /say 7:30am or 7:30pm \(or 19:30\)/],
    ['Sat 10-12', /"10" could be morning or evening/],
    ['Saturday', /no time of day/],
    ['next week at 5pm', /could not read "next", "week"/],
    ['sat 10am 11am', /two times given/],
    ['today tomorrow 10am', /two days given/],
    ['monday 25:00', /"25:00" is not a time/],
    ['feb 30 10am', /"feb 30" is not a date/],
    ['sat 13pm', /"13pm" is not a time/],
    ['sat 10am?', /"\?" is not part of a time/],
    ['', /no time given/],
    ['whenever it suits', /could not read "whenever", "it", "suits"/],
    // Object.prototype's names are words like any other (issue 41: the fuzzer sent "constructor").
    ['constructor 7pm', /could not read "constructor"/],
    ['next constructor 7pm', /could not read "next", "constructor"/],
    ['sat 10am valueof', /could not read "valueof"/],
  ])('refuses %j', (text, problem) => {
    const reading = readPlainTime(text, TODAY);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problem).toMatch(problem);
  });

  it('never throws, and reads only real moments (fixed seed)', () => {
    const words = fc.constantFrom(
      'sat',
      'next',
      'this',
      'tomorrow',
      'today',
      'tonight',
      'evening',
      'morning',
      'at',
      'from',
      'to',
      '-',
      '–',
      '10',
      '7pm',
      '13',
      '12:30',
      '8th',
      'december',
      'dec',
      '2026',
      'of',
      'noon',
      'x',
      '?',
      ',',
      '99',
      '0am',
      'constructor',
      '__proto__',
      'tostring',
      'valueof',
      'hasownproperty',
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 8 }), fc.string({ maxLength: 20 }), (parts, noise) => {
        for (const text of [parts.join(' '), `${parts.join(' ')}${noise}`]) {
          const reading = readPlainTime(text, TODAY);
          if (!reading.ok) continue;
          const { start, end } = reading;
          const valid = (m: LocalMoment) =>
            new Date(Date.UTC(m.year, m.month - 1, m.day)).getUTCDate() === m.day &&
            m.hour >= 0 &&
            m.hour < 24 &&
            m.minute >= 0 &&
            m.minute < 60;
          expect(valid(start), text).toBe(true);
          if (end)
            expect(Date.UTC(end.year, end.month - 1, end.day, end.hour, end.minute)).toBeGreaterThan(
              Date.UTC(start.year, start.month - 1, start.day, start.hour, start.minute),
            );
        }
      }),
      { seed: 20261129, numRuns: 2000 },
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importWindow } from './index';
import { looksLikeICalendar, parseICalendar } from './ics';

// node-ical reads date-only and floating values in the process zone; the mapping must not depend on it.
const originalTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  process.env.TZ = originalTz;
});

const NOW = new Date('2026-03-02T12:00:00Z'); // a Monday
const WINDOW = importWindow(NOW, 90);

function calendar(...events: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR'].join('\r\n');
}

const WEEKLY = [
  'BEGIN:VEVENT',
  'UID:weekly-climb@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=Europe/Berlin:20260304T190000',
  'DTEND;TZID=Europe/Berlin:20260304T210000',
  'RRULE:FREQ=WEEKLY;COUNT=6',
  'EXDATE;TZID=Europe/Berlin:20260311T190000',
  'SUMMARY:Weekly bouldering meetup',
  'DESCRIPTION:All levels\\, shoes to rent.',
  'LOCATION:Boulder Hall\\, Revaler Str. 99\\, 10245 Berlin\\, Germany',
  'CATEGORIES:Climbing,Sports',
  'URL:https://example.org/climb',
  'END:VEVENT',
  // The 18 March occurrence is cancelled...
  'BEGIN:VEVENT',
  'UID:weekly-climb@test',
  'DTSTAMP:20260101T000000Z',
  'RECURRENCE-ID;TZID=Europe/Berlin:20260318T190000',
  'DTSTART;TZID=Europe/Berlin:20260318T190000',
  'DTEND;TZID=Europe/Berlin:20260318T210000',
  'SUMMARY:Weekly bouldering meetup',
  'STATUS:CANCELLED',
  'END:VEVENT',
  // ...and the 25 March one moves an hour later.
  'BEGIN:VEVENT',
  'UID:weekly-climb@test',
  'DTSTAMP:20260101T000000Z',
  'RECURRENCE-ID;TZID=Europe/Berlin:20260325T190000',
  'DTSTART;TZID=Europe/Berlin:20260325T200000',
  'DTEND;TZID=Europe/Berlin:20260325T220000',
  'SUMMARY:Weekly bouldering meetup (late)',
  'END:VEVENT',
].join('\r\n');

describe('parseICalendar', () => {
  it('recognises iCalendar text', () => {
    expect(looksLikeICalendar('\uFEFFBEGIN:VCALENDAR\r\n')).toBe(true);
    expect(looksLikeICalendar('{"events":[]}')).toBe(false);
  });

  it('expands a weekly series, leaving out EXDATEs and cancelled occurrences, applying overrides', async () => {
    const parsed = await parseICalendar(calendar(WEEKLY), WINDOW);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.cancelled).toBe(1);
    const byUid = Object.fromEntries(parsed.drafts.map((d) => [d.uid, d]));
    // COUNT=6 from 4 March: 4, 11 (EXDATE), 18 (cancelled), 25 (moved), 1 April, 8 April.
    expect(Object.keys(byUid).sort()).toEqual([
      'weekly-climb@test#2026-03-04T18:00:00.000Z',
      'weekly-climb@test#2026-03-25T18:00:00.000Z',
      'weekly-climb@test#2026-04-01T17:00:00.000Z',
      'weekly-climb@test#2026-04-08T17:00:00.000Z',
    ]);
    const first = byUid['weekly-climb@test#2026-03-04T18:00:00.000Z']!;
    expect(first).toMatchObject({
      seriesUid: 'weekly-climb@test',
      title: 'Weekly bouldering meetup',
      description: 'All levels, shoes to rent.',
      allDay: false,
      timezone: 'Europe/Berlin',
      localDate: '2026-03-04',
      location: 'Boulder Hall, Revaler Str. 99, 10245 Berlin, Germany',
      categories: ['Climbing', 'Sports'],
      url: 'https://example.org/climb',
    });
    expect(first.start.toISOString()).toBe('2026-03-04T18:00:00.000Z');
    expect(first.end.toISOString()).toBe('2026-03-04T20:00:00.000Z');
    // The override keeps the uid of the occurrence it replaces but has its own time and title.
    const moved = byUid['weekly-climb@test#2026-03-25T18:00:00.000Z']!;
    expect(moved.start.toISOString()).toBe('2026-03-25T19:00:00.000Z');
    expect(moved.title).toBe('Weekly bouldering meetup (late)');
    // After the DST change in Berlin (29 March) 19:00 local is 17:00 UTC.
    expect(byUid['weekly-climb@test#2026-04-01T17:00:00.000Z']!.start.toISOString()).toBe('2026-04-01T17:00:00.000Z');
  });

  it('drops a cancelled event and keeps one-off events however far ahead', async () => {
    const parsed = await parseICalendar(
      calendar(
        [
          'BEGIN:VEVENT',
          'UID:gone@test',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260310T180000Z',
          'SUMMARY:Called off',
          'STATUS:CANCELLED',
          'END:VEVENT',
        ].join('\r\n'),
        [
          'BEGIN:VEVENT',
          'UID:far@test',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20261010T180000Z',
          'DURATION:PT2H',
          'SUMMARY:Autumn fair',
          'END:VEVENT',
        ].join('\r\n'),
        [
          'BEGIN:VEVENT',
          'UID:past@test',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260110T180000Z',
          'SUMMARY:Long over',
          'END:VEVENT',
        ].join('\r\n'),
      ),
      WINDOW,
    );
    expect(parsed.cancelled).toBe(1);
    expect(parsed.drafts.map((d) => d.uid)).toEqual(['far@test']);
    expect(parsed.drafts[0]!.end.toISOString()).toBe('2026-10-10T20:00:00.000Z');
    expect(parsed.drafts[0]!.timezone).toBe('Etc/UTC');
  });

  it('cuts an endless series at the horizon', async () => {
    const parsed = await parseICalendar(
      calendar(
        [
          'BEGIN:VEVENT',
          'UID:daily@test',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260101T070000Z',
          'RRULE:FREQ=DAILY',
          'SUMMARY:Morning run',
          'END:VEVENT',
        ].join('\r\n'),
      ),
      importWindow(NOW, 10),
    );
    // From a day back (1 March, noon) up to the horizon (12 March, noon): 11 mornings.
    expect(parsed.drafts.map((d) => d.localDate)).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
    ]);
    expect(new Set(parsed.drafts.map((d) => d.uid)).size).toBe(11);
  });

  it('stores whole-day events as UTC midnights of their dates, whatever the process zone', async () => {
    const parsed = await parseICalendar(
      calendar(
        [
          'BEGIN:VEVENT',
          'UID:market@test',
          'DTSTAMP:20260101T000000Z',
          'DTSTART;VALUE=DATE:20260307',
          'DTEND;VALUE=DATE:20260309',
          'SUMMARY:Weekend market',
          'END:VEVENT',
        ].join('\r\n'),
        [
          'BEGIN:VEVENT',
          'UID:fair@test',
          'DTSTAMP:20260101T000000Z',
          'DTSTART;VALUE=DATE:20260314',
          'SUMMARY:One-day fair',
          'RRULE:FREQ=WEEKLY;COUNT=2',
          'END:VEVENT',
        ].join('\r\n'),
      ),
      WINDOW,
    );
    const market = parsed.drafts.find((d) => d.uid === 'market@test')!;
    expect(market).toMatchObject({ allDay: true, localDate: '2026-03-07', timezone: null });
    expect(market.start.toISOString()).toBe('2026-03-07T00:00:00.000Z');
    expect(market.end.toISOString()).toBe('2026-03-09T00:00:00.000Z');
    const fair = parsed.drafts.filter((d) => d.seriesUid === 'fair@test');
    expect(fair.map((d) => d.uid)).toEqual(['fair@test#2026-03-14', 'fair@test#2026-03-21']);
    expect(fair[0]!.end.toISOString()).toBe('2026-03-15T00:00:00.000Z');
  });

  it("reads floating times in the calendar's X-WR-TIMEZONE", async () => {
    const text = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'X-WR-TIMEZONE:Europe/Berlin',
      'BEGIN:VEVENT',
      'UID:floating@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART:20260306T190000',
      'DTEND:20260306T220000',
      'SUMMARY;LANGUAGE=de:Spieleabend',
      'GEO:52.52;13.405',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [draft] = (await parseICalendar(text, WINDOW)).drafts;
    expect(draft).toMatchObject({
      title: 'Spieleabend',
      timezone: 'Europe/Berlin',
      localDate: '2026-03-06',
      coords: { latitude: 52.52, longitude: 13.405 },
    });
    expect(draft!.start.toISOString()).toBe('2026-03-06T18:00:00.000Z');
    expect(draft!.end.toISOString()).toBe('2026-03-06T21:00:00.000Z');
  });

  it('skips events without a title and reports them', async () => {
    const parsed = await parseICalendar(
      calendar(
        [
          'BEGIN:VEVENT',
          'UID:untitled@test',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260310T180000Z',
          'END:VEVENT',
        ].join('\r\n'),
      ),
      WINDOW,
    );
    expect(parsed.drafts).toEqual([]);
    expect(parsed.skipped).toEqual([{ uid: 'untitled@test', reason: 'no title' }]);
  });
});

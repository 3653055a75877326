import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_FILE,
  defaultSourceName,
  importWindow,
  parseFeedEntry,
  parseFeedText,
  shiftICalendarDates,
  shiftSampleCalendar,
} from './index';

describe('shiftICalendarDates', () => {
  it('moves dates in date properties and RRULE UNTIL, keeping wall-clock times', () => {
    const text = [
      'DTSTART;TZID=Europe/Berlin:20260110T190000',
      'DTEND;VALUE=DATE:20260131',
      'EXDATE;TZID=Europe/Berlin:20260117T190000,20260124T190000',
      'RECURRENCE-ID:20260110T180000Z',
      'RRULE:FREQ=WEEKLY;UNTIL=20260228T000000Z',
      'DESCRIPTION:On 20260110 we meet',
    ].join('\r\n');
    expect(shiftICalendarDates(text, 28).split('\r\n')).toEqual([
      'DTSTART;TZID=Europe/Berlin:20260207T190000',
      'DTEND;VALUE=DATE:20260228',
      'EXDATE;TZID=Europe/Berlin:20260214T190000,20260221T190000',
      'RECURRENCE-ID:20260207T180000Z',
      'RRULE:FREQ=WEEKLY;UNTIL=20260328T000000Z',
      'DESCRIPTION:On 20260110 we meet',
    ]);
  });
});

describe('the sample calendar', () => {
  it('is labelled as sample data and always has upcoming events, recurring and one-off, in several cities', async () => {
    for (const now of [new Date('2026-11-22T13:00:00Z'), new Date('2031-06-14T23:30:00Z')]) {
      const text = shiftSampleCalendar(fs.readFileSync(SAMPLE_FILE, 'utf8'), now);
      const parsed = await parseFeedText(text, importWindow(now, 90));
      expect(parsed.skipped).toEqual([]);
      const upcoming = parsed.drafts.filter((d) => d.start > now);
      expect(upcoming.length).toBeGreaterThan(30);
      expect(
        parsed.drafts.every((d) => d.title.startsWith('[Sample] ') && d.description?.startsWith('SAMPLE EVENT')),
      ).toBe(true);
      const oneOffs = upcoming.filter((d) => d.uid === d.seriesUid);
      expect(oneOffs.length).toBeGreaterThanOrEqual(3);
      // The first one-off is at most a month away, whenever the service starts.
      expect(Math.min(...oneOffs.map((d) => d.start.getTime())) - now.getTime()).toBeLessThan(31 * 86_400_000);
      expect(new Set(parsed.drafts.map((d) => d.timezone)).size).toBeGreaterThanOrEqual(4);
    }
  });
});

describe('feed names', () => {
  it.each([
    ['https://example.org/club/events.ics?key=1', 'example.org/club/events.ics'],
    ['./data/Climbing Club.ics', 'Climbing-Club'],
    ['/tmp/feed.json', 'feed'],
    ['file:///srv/cal.ical', 'cal'],
  ])('names %j %j by default', (location, name) => {
    expect(defaultSourceName(location)).toBe(name);
  });

  it('reads name=location entries of EVENTS_FEEDS', () => {
    expect(parseFeedEntry('club=https://example.org/a.ics?x=1')).toEqual({
      source: 'club',
      location: 'https://example.org/a.ics?x=1',
    });
    expect(parseFeedEntry('https://example.org/a.ics?x=1')).toEqual({
      source: undefined,
      location: 'https://example.org/a.ics?x=1',
    });
  });
});

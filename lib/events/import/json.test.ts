import { describe, expect, it } from 'vitest';
import { EVENTS_EXAMPLE } from '@/lib/contract/events';
import { importWindow } from './index';
import { looksLikeJson, parseJsonFeed } from './json';

const WINDOW = importWindow(new Date('2026-03-02T12:00:00Z'), 90);

describe('parseJsonFeed', () => {
  it('reads an array of events with dates, places and activities', () => {
    const parsed = parseJsonFeed(
      JSON.stringify([
        {
          uid: 'run-1',
          title: 'Riverside 10k',
          start: '2026-03-08T09:00:00+01:00',
          end: '2026-03-08T11:00:00+01:00',
          timezone: 'Europe/Berlin',
          venue_name: 'Boathouse',
          city: 'Hamburg',
          country: 'DE',
          activities: ['running', 'jogging'],
          categories: ['Sport'],
          url: 'https://example.org/run',
        },
        { id: 42, title: 'Spring fair', start: '2026-04-11', location: 'Market Square, Leeds, UK' },
      ]),
      WINDOW,
    );
    expect(parsed.skipped).toEqual([]);
    const [run, fair] = parsed.drafts;
    expect(run).toMatchObject({
      uid: 'run-1',
      seriesUid: 'run-1',
      allDay: false,
      timezone: 'Europe/Berlin',
      localDate: '2026-03-08',
      venueName: 'Boathouse',
      city: 'Hamburg',
      country: 'DE',
      activities: ['running', 'jogging'],
      url: 'https://example.org/run',
    });
    expect(run!.start.toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(fair).toMatchObject({
      uid: '42',
      allDay: true,
      localDate: '2026-04-11',
      location: 'Market Square, Leeds, UK',
    });
    expect(fair!.start.toISOString()).toBe('2026-04-11T00:00:00.000Z');
    expect(fair!.end.toISOString()).toBe('2026-04-12T00:00:00.000Z');
  });

  it("imports the feed's own item format ({events: [...]})", () => {
    const item = { ...EVENTS_EXAMPLE.events[0]!, start: '2026-03-07T17:00:00.000Z', end: '2026-03-07T20:00:00.000Z' };
    const [draft] = parseJsonFeed(JSON.stringify({ ...EVENTS_EXAMPLE, events: [item] }), WINDOW).drafts;
    expect(draft).toMatchObject({
      uid: item.uid,
      title: item.title,
      city: 'Portland',
      region: 'Oregon',
      country: 'US',
      coords: item.coords,
      activities: ['hiking'],
    });
  });

  it('leaves out cancelled and past events and reports invalid ones', () => {
    const parsed = parseJsonFeed(
      JSON.stringify({
        events: [
          { uid: 'a', title: 'Off', start: '2026-03-09', status: 'CANCELLED' },
          { uid: 'b', title: 'Off too', start: '2026-03-09', cancelled: true },
          { uid: 'c', title: 'Over', start: '2026-01-09T10:00:00Z' },
          { uid: 'd', start: '2026-03-09' },
          { uid: 'e', title: 'Bad date', start: 'next tuesday' },
          'not an object',
        ],
      }),
      WINDOW,
    );
    expect(parsed.drafts).toEqual([]);
    expect(parsed.cancelled).toBe(2);
    expect(parsed.skipped.map((s) => s.uid)).toEqual(['c', 'd', 'e', '#5']);
    expect(parsed.skipped[2]!.reason).toMatch(/^start: must be YYYY-MM-DD/);
  });

  it('gives events without ids a stable uid', () => {
    const text = JSON.stringify([{ title: 'Picnic', start: '2026-03-10' }]);
    const first = parseJsonFeed(text, WINDOW).drafts[0]!.uid;
    expect(first).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(parseJsonFeed(text, WINDOW).drafts[0]!.uid).toBe(first);
  });

  it('rejects text that is not a feed', () => {
    expect(looksLikeJson(' [')).toBe(true);
    expect(() => parseJsonFeed('{"items": []}', WINDOW)).toThrow(/"events" array/);
    expect(() => parseJsonFeed('{oops', WINDOW)).toThrow(/not valid JSON/);
  });
});

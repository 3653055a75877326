import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';
import {
  type CalendarPlan,
  calendarSequence,
  googleCalendarUrl,
  planEvent,
  planFileName,
  plansCalendar,
} from './calendar';

const plan: CalendarPlan = {
  id: '7d3f8a52-58a4-4b1e-8f0e-2c4b8d1e9a01',
  calendar_uid: '0b6c1c1e-7a1e-4d55-9d1f-6c1d2f0a9a11',
  sequence: 0,
  status: 'confirmed',
  activity: 'Climbing; then food, maybe\nBEGIN:VALARM',
  starts_at: '2026-12-01T10:00:00+01:00',
  ends_at: '2026-12-01T12:00:00+01:00',
  place_name: `Café "Zum Berg", ${'long name '.repeat(12)}`,
  place_address: null,
  other_name: 'Ana Maria Lima',
};

const parsed = (text: string) =>
  Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');

describe('plansCalendar', () => {
  it('escapes attacker-chosen text and folds long lines, so nothing can inject a property or component', () => {
    const text = plansCalendar([plan], { host: 'buddy.example', name: 'Plans', baseUrl: 'https://buddy.example' });
    expect(text.match(/^BEGIN:VALARM/gm)).toHaveLength(2);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const [event] = parsed(text);
    expect(event?.summary).toBe('Climbing; then food, maybe\nBEGIN:VALARM with Ana');
    expect(event?.location).toBe(plan.place_name);
    expect(event?.uid).toBe(`${plan.calendar_uid}@buddy.example`);
    expect(text).toMatch(/^DTSTART:20261201T090000Z\r$/m);
    // Issue 46 §7: the file links back to the plan's page.
    expect(event?.url).toMatchObject({ val: `https://buddy.example/account/plans/${plan.id}` });
  });

  it('names the file after the plan and its day, in plain letters', () => {
    expect(planFileName(plan)).toBe('climbing-then-food-maybe-begin-valarm-with-ana-2026-12-01.ics');
    expect(planFileName({ ...plan, activity: 'Café & Crêpes', other_name: 'Zoë' })).toBe(
      'cafe-crepes-with-zoe-2026-12-01.ics',
    );
    expect(planFileName({ ...plan, activity: '日本語', other_name: '李' })).toBe('with-2026-12-01.ics');
  });

  it("gives Google Calendar's add link the same event, in UTC", () => {
    const url = new URL(googleCalendarUrl(planEvent(plan, 'https://buddy.example')));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: 'TEMPLATE',
      text: 'Climbing; then food, maybe\nBEGIN:VALARM with Ana',
      dates: '20261201T090000Z/20261201T110000Z',
      location: plan.place_name,
      details: `https://buddy.example/account/plans/${plan.id}`,
    });
  });

  it('gives every change a higher SEQUENCE: confirm, cancel, and each counter step', () => {
    const steps = [
      calendarSequence({ sequence: 0, status: 'proposed' }),
      calendarSequence({ sequence: 0, status: 'confirmed' }),
      calendarSequence({ sequence: 0, status: 'cancelled' }),
      calendarSequence({ sequence: 1, status: 'proposed' }),
      calendarSequence({ sequence: 1, status: 'confirmed' }),
      calendarSequence({ sequence: 1, status: 'cancelled' }),
    ];
    expect([...steps].sort((x, y) => x - y)).toEqual(steps);
    expect(new Set(steps).size).toBe(steps.length);
  });

  it('keeps the alarms of a confirmed plan and drops those of a cancelled or declined one', () => {
    const alarmsOf = (status: CalendarPlan['status']) =>
      plansCalendar([{ ...plan, status }], {
        host: 'buddy.example',
        name: 'Plans',
        baseUrl: 'https://buddy.example',
      }).match(/^BEGIN:VALARM/gm)?.length ?? 0;
    expect([alarmsOf('confirmed'), alarmsOf('proposed'), alarmsOf('cancelled'), alarmsOf('declined')]).toEqual([
      2, 2, 0, 0,
    ]);
  });
});

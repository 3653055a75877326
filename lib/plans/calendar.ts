// Plans as iCalendar (RFC 5545, issue 29 section 4): one plan's .ics and a person's feed.
// ical-generator does the escaping and line folding; this file decides what goes in.
import ical, { ICalAlarmType, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { PlanStatus } from '@/db/types';
import { plainWords } from '../core/plain-words';
import { firstName } from '../profiles/records';

/** A plan as the calendar needs it; the other person is only ever their first name. */
export interface CalendarPlan {
  id: string;
  calendar_uid: string;
  sequence: number;
  status: PlanStatus;
  activity: string;
  starts_at: Date | string;
  ends_at: Date | string;
  place_name: string;
  place_address: string | null;
  other_name: string;
}

/** Reminders a calendar app shows itself, before the start. */
export const CALENDAR_ALARM_SECONDS = [24 * 3600, 2 * 3600] as const;

// A chain step (a counter) adds 3 and a status change within a step adds 1 (proposed 0,
// confirmed 1, closed 2), so SEQUENCE grows with every change a calendar must apply:
// confirm, cancel, and an accepted counter (a new step of the same UID).
const STAGE: Record<PlanStatus, number> = {
  proposed: 0,
  superseded: 0,
  confirmed: 1,
  cancelled: 2,
  declined: 2,
  expired: 2,
};

export function calendarSequence(plan: Pick<CalendarPlan, 'sequence' | 'status'>): number {
  return plan.sequence * 3 + STAGE[plan.status];
}

function eventStatus(status: PlanStatus): ICalEventStatus {
  if (status === 'confirmed') return ICalEventStatus.CONFIRMED;
  if (status === 'proposed' || status === 'superseded') return ICalEventStatus.TENTATIVE;
  return ICalEventStatus.CANCELLED;
}

export function planSummary(plan: Pick<CalendarPlan, 'activity' | 'other_name'>): string {
  return `${plan.activity} with ${firstName(plan.other_name)}`;
}

/** One VEVENT, whatever it comes from (a plan here, a meetup in lib/meetups/calendar.ts). */
export interface CalendarEvent {
  /** Unique across the service; `@host` is added. */
  uid: string;
  sequence: number;
  status: ICalEventStatus;
  start: Date;
  end: Date;
  summary: string;
  /** Left out where the text is not this service's to vouch for (a reminder mail's attachment). */
  location?: string;
  /** Its page on this site, where the rest is shown (issue 46 §7: the file links back). */
  url?: string;
}

export { ICalEventStatus };

/** A plan's page on this site. */
export const planPageUrl = (baseUrl: string, planId: string) => `${baseUrl}/account/plans/${planId}`;

/** What a plan's .ics is called: its summary and date, "hiking-with-bea-2026-12-05.ics". */
export function planFileName(plan: Pick<CalendarPlan, 'activity' | 'other_name' | 'starts_at'>): string {
  return icsFileName(planSummary(plan), plan.starts_at);
}

/** An .ics named by a summary and the start's date: "rock-climbing-with-ana-2026-12-05.ics". */
export function icsFileName(summary: string, startsAt: Date | string): string {
  const day = new Date(startsAt).toISOString().slice(0, 10);
  return `${plainWords(summary, 60) || 'plan'}-${day}.ics`;
}

/**
 * The same event as Google Calendar's "add event" link (its documented TEMPLATE action): for
 * people whose calendar does not open .ics files.
 */
export function googleCalendarUrl(
  event: Pick<CalendarEvent, 'start' | 'end' | 'summary' | 'location' | 'url'>,
): string {
  const stamp = (date: Date) =>
    date
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.summary,
    dates: `${stamp(event.start)}/${stamp(event.end)}`,
    ...(event.location ? { location: event.location } : {}),
    ...(event.url ? { details: event.url } : {}),
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

export function planEvent(plan: CalendarPlan, baseUrl?: string): CalendarEvent {
  return {
    ...(baseUrl ? { url: planPageUrl(baseUrl, plan.id) } : {}),
    uid: plan.calendar_uid,
    sequence: calendarSequence(plan),
    status: eventStatus(plan.status),
    start: new Date(plan.starts_at),
    end: new Date(plan.ends_at),
    summary: planSummary(plan),
    location: plan.place_address ? `${plan.place_name}, ${plan.place_address}` : plan.place_name,
  };
}

/** A VCALENDAR holding one VEVENT per event; `host` qualifies each UID (RFC 5545 §3.8.4.7). */
export function eventsCalendar(
  events: readonly CalendarEvent[],
  { host, name }: { host: string; name: string },
): string {
  const calendar = ical({ name, prodId: { company: 'Buddy Match', product: 'plans', language: 'EN' } });
  calendar.method(ICalCalendarMethod.PUBLISH);
  const stamp = new Date();
  for (const item of events) {
    const event = calendar.createEvent({
      id: `${item.uid}@${host}`,
      sequence: item.sequence,
      stamp,
      start: item.start,
      end: item.end,
      summary: item.summary,
      ...(item.location ? { location: item.location } : {}),
      status: item.status,
      ...(item.url ? { url: item.url } : {}),
    });
    // A cancelled event rings for nothing: its alarms go with the update that cancels it.
    if (item.status === ICalEventStatus.CANCELLED) continue;
    for (const seconds of CALENDAR_ALARM_SECONDS) {
      event.createAlarm({ type: ICalAlarmType.display, trigger: seconds, description: item.summary });
    }
  }
  return calendar.toString();
}

/** A VCALENDAR holding one VEVENT per plan, each linking to its page. */
export function plansCalendar(
  plans: readonly CalendarPlan[],
  where: { host: string; name: string; baseUrl: string },
): string {
  return eventsCalendar(
    plans.map((plan) => planEvent(plan, where.baseUrl)),
    where,
  );
}

// Shared steps for the meetup API tests: people placed at their own spot at sea (no other test's
// meetups are near), hosting, joining, and reading what was stored.
import { sql } from 'kysely';
import type { z } from 'zod';
import * as meetups from '@/lib/contract/meetups';
import { registerUser, testDb } from './client';
import { call, send } from './contract-client';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export type Person = Awaited<ReturnType<typeof registerUser>>;

/**
 * Spots in the South Atlantic for one test file, each 1.5° of latitude (~166 km, past the largest
 * search radius) from the next; each file passes its own longitude, so files never meet.
 */
export function spotsAt(longitude: number) {
  let n = 0;
  return () => {
    const spot = { latitude: -45 + ((n * 1.5) % 39), longitude: longitude - Math.floor(n / 26) * 2 };
    n += 1;
    return spot;
  };
}

/** A complete-enough person at `at` (km north of it): place, birthday, activities, free every evening. */
export async function person(
  name: string,
  at: { latitude: number; longitude: number },
  extra: Record<string, unknown> = {},
  kmNorth = 0,
): Promise<Person> {
  return registerUser({
    displayName: name,
    location: 'Open sea',
    coords: { latitude: at.latitude + kmNorth / 111, longitude: at.longitude },
    birthday: '1990-06-15',
    activities: ['bouldering', 'hiking'],
    availability_text: 'every day 6pm-11pm',
    ...extra,
  });
}

export async function people(count: number, prefix: string, at: { latitude: number; longitude: number }) {
  return Promise.all(Array.from({ length: count }, (_, i) => person(`${prefix}${i + 1} Tester`, at)));
}

export type HostBody = z.input<typeof meetups.hostMeetupBodySchema>;

export const hostBody = (overrides: Partial<HostBody> = {}): HostBody => ({
  activity: 'bouldering',
  starts_at: new Date(Date.now() + 4 * DAY).toISOString(),
  place: { name: 'Ostbloc', address: 'Hauptstraße 1' },
  capacity: 4,
  ...overrides,
});

export const host = async (by: Person, overrides: Partial<HostBody> = {}, base?: string) =>
  call(meetups.hostMeetup, { token: by.token, body: hostBody(overrides), base });

export const join = (by: Person, meetupId: string, base?: string) =>
  send(meetups.joinMeetup, { params: { meetupId }, token: by.token, body: {}, base });
export const joined = async (by: Person, meetupId: string) =>
  (await call(meetups.joinMeetup, { params: { meetupId }, token: by.token, body: {} })).meetup;
export const leave = (by: Person, meetupId: string, base?: string) =>
  send(meetups.leaveMeetup, { params: { meetupId }, token: by.token, body: {}, base });
export const cancel = (by: Person, meetupId: string, body: { reason?: string; series?: boolean } = {}, base?: string) =>
  send(meetups.cancelMeetup, { params: { meetupId }, token: by.token, body, base });
export const view = async (by: Person, meetupId: string) =>
  (await call(meetups.getMeetup, { params: { meetupId }, token: by.token })).meetup;

export const storedMeetup = (id: string) =>
  testDb().selectFrom('meetups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const attendees = (meetupId: string) =>
  testDb().selectFrom('meetup_attendees').selectAll().where('meetup_id', '=', meetupId).orderBy('position').execute();

/** Meetup push jobs queued for a person, by event. */
export async function meetupPushes(recipientId: string, meetupId: string): Promise<string[]> {
  const { rows } = await sql<{ event: string }>`
    select data->>'event' as event from pgboss.job
    where name = 'push-notify' and data->>'kind' = 'meetup'
      and data->>'recipientId' = ${recipientId} and data->>'meetupId' = ${meetupId}
    order by created_on`.execute(testDb());
  return rows.map((row) => row.event);
}

/** Meetup mail jobs queued for a person, by event. */
export async function meetupMails(userId: string, meetupId: string): Promise<string[]> {
  const { rows } = await sql<{ event: string }>`
    select data->>'event' as event from pgboss.job
    where name = 'mail-meetup' and data->>'userId' = ${userId} and data->>'meetupId' = ${meetupId}
    order by created_on`.execute(testDb());
  return rows.map((row) => row.event);
}

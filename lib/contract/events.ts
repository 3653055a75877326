// The events feed (SPEC section 4, GET /api/v1/events.json): a read-only list of local
// events, served from the built-in directory or proxied to EVENTS_UPSTREAM_URL.
import { z } from 'zod';
import { boundEnd, boundStart, parseBbox, parseDateBound, parsePoint } from './event-params';
import { activityListSchema } from './forgiving';
import { defineEndpoint } from './define';
import { API_PATHS } from './paths';
import { coordsSchema, isoDateTime } from './schemas';
import { singleLine } from './text';

export const EVENTS_LIMITS = { defaultLimit: 40, maxLimit: 100, maxOffset: 10_000, activitiesMax: 20 } as const;
export const EVENT_SORTS = ['start', 'distance'] as const;

/** One event occurrence. The shape is stable: fields are only ever added. */
export const eventItemSchema = z.object({
  id: z.string().describe('Stable id of this occurrence in the directory'),
  uid: z.string().describe("The feed's UID; for an occurrence of a recurring event '<UID>#<start>'"),
  source: z.string().describe('Which feed the event came from'),
  title: z.string(),
  description: z.string().nullable(),
  start: isoDateTime.describe('Start, ISO 8601 in UTC'),
  end: isoDateTime.describe('End, ISO 8601 in UTC (equal to start when the feed gives none)'),
  all_day: z.boolean().describe('A whole-day event: start and end are midnights of its local dates'),
  timezone: z.string().nullable().describe('IANA timezone of the event, e.g. Europe/Berlin'),
  venue_name: z.string().nullable(),
  venue_address: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable().describe('State or province (US states spelled out)'),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2'),
  coords: coordsSchema.nullable(),
  activities: z.array(z.string()).describe('Canonical activity ids (see /api/v1/activities.json)'),
  categories: z.array(z.string()).describe("The feed's own categories"),
  url: z.string().nullable(),
  distance_km: z.number().nullable().describe('From the reference point (near, bbox centre or city) when there is one'),
  scraped_at: isoDateTime.describe('When the event was last read from its feed'),
});
export type EventItem = z.infer<typeof eventItemSchema>;

export const eventsFeedSchema = z.object({
  events: z.array(eventItemSchema),
  total: z.number().int().describe('Matching events in all pages'),
  scraped_at_max: isoDateTime.nullable().describe('Most recent scraped_at among the matching events'),
  warnings: z
    .object({ unknown_parameters: z.record(z.string(), z.string()) })
    .optional()
    .describe('Built-in directory: parameters it ignored, each with a did-you-mean'),
});
export type EventsFeed = z.infer<typeof eventsFeedSchema>;

/** What an upstream must answer: the same envelope; its items are passed through as objects. */
export const upstreamFeedSchema = z.object({
  events: z.array(z.record(z.string(), z.unknown())),
  total: z.number().int().min(0),
  scraped_at_max: z.string().nullable(),
});
export type UpstreamFeed = z.infer<typeof upstreamFeedSchema>;

const text = (max: number) => singleLine().max(max, `must be at most ${max} characters`);
const dateParam = singleLine()
  .refine((value) => parseDateBound(value) !== null, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with offset')
  .describe('YYYY-MM-DD (the event’s local date) or an ISO 8601 date-time');

export const eventsQuerySchema = z
  .object({
    limit: z.coerce
      .number({ message: 'must be an integer' })
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(EVENTS_LIMITS.maxLimit, `must be at most ${EVENTS_LIMITS.maxLimit}`)
      .default(EVENTS_LIMITS.defaultLimit),
    offset: z.coerce
      .number({ message: 'must be an integer' })
      .int('must be an integer')
      .min(0, 'must be at least 0')
      .max(EVENTS_LIMITS.maxOffset, `must be at most ${EVENTS_LIMITS.maxOffset}`)
      .default(0),
    region: text(120).optional().describe('State, province or country, by name or code (Oregon, OR, DE)'),
    activities: activityListSchema({
      field: 'activities',
      form: 'query',
      max: EVENTS_LIMITS.activitiesMax,
      describe: 'Comma-separated, plain English or ids; events with any of them',
    }).optional(),
    date_from: dateParam.optional().describe('Starting on or after this date (default: not yet over)'),
    date_to: dateParam.optional().describe('Starting on or before this date'),
    city: text(120).optional().describe('City, optionally with its region: Portland, OR'),
    q: text(200).optional().describe('Full text ("quoted phrase", -exclude, or); an activity name finds that activity'),
    bbox: singleLine()
      .refine((value) => parseBbox(value) !== null, 'must be minLon,minLat,maxLon,maxLat in degrees')
      .optional()
      .describe('minLon,minLat,maxLon,maxLat'),
    sources: text(500).optional().describe('Comma-separated source names'),
    sort: z
      .enum(EVENT_SORTS, { message: `must be one of: ${EVENT_SORTS.join(', ')}` })
      .optional()
      .describe('start (default) or distance'),
    near: singleLine()
      .refine((value) => parsePoint(value) !== null, 'must be lat,lon in degrees')
      .optional()
      .describe('lat,lon for sort=distance and distance_km (default: bbox centre, else city)'),
  })
  // Every further parameter is forwarded to the upstream directory untouched.
  .catchall(singleLine().max(2000, 'must be at most 2000 characters'))
  .superRefine((query, ctx) => {
    const from = query.date_from ? parseDateBound(query.date_from) : null;
    const to = query.date_to ? parseDateBound(query.date_to) : null;
    if (!from || !to) return;
    // Two dates compare as dates; with a date-time involved, a date spans every zone's version of that day.
    const reversed = from.kind === 'date' && to.kind === 'date' ? from.date > to.date : boundStart(from) > boundEnd(to);
    if (reversed) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'must not be before date_from' });
    }
  });
export type EventsQuery = z.output<typeof eventsQuerySchema>;

/** The documented parameters, in the order they are forwarded. */
export const EVENTS_QUERY_KEYS = Object.keys(eventsQuerySchema.shape) as (keyof typeof eventsQuerySchema.shape)[];

export const EVENTS_EXAMPLE: EventsFeed = {
  events: [
    {
      id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
      uid: 'sample-hike-pdx@buddy-match#2026-11-21T17:00:00.000Z',
      source: 'sample',
      title: '[Sample] Saturday morning hike in Forest Park',
      description: 'Sample event shipped with the service; not a real event.',
      start: '2026-11-21T17:00:00.000Z',
      end: '2026-11-21T20:00:00.000Z',
      all_day: false,
      timezone: 'America/Los_Angeles',
      venue_name: 'Lower Macleay Trailhead',
      venue_address: 'NW Upshur St',
      city: 'Portland',
      region: 'Oregon',
      country: 'US',
      coords: { latitude: 45.5355, longitude: -122.7126 },
      activities: ['hiking'],
      categories: ['Hiking', 'Outdoors'],
      url: null,
      distance_km: null,
      scraped_at: '2026-11-20T08:07:00.000Z',
    },
  ],
  total: 1,
  scraped_at_max: '2026-11-20T08:07:00.000Z',
};

export const listEvents = defineEndpoint({
  id: 'list_events',
  title: 'Find events',
  method: 'GET',
  path: API_PATHS.events,
  auth: 'none',
  // reads an upstream events directory when one is configured
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  tags: ['events'],
  summary: 'Local events, filterable by place, date, activity and text',
  description:
    'Events from the built-in directory or a configured upstream one (query forwarded, items passed through). Without date_from, only events not yet over. ' +
    'Cached about a minute (ETag honoured). 502 upstream_error / 503 upstream_unavailable when the upstream fails. ' +
    'Limited per client address per minute (429 with Retry-After).',
  query: eventsQuerySchema,
  response: eventsFeedSchema,
  // Counted before anything else, so a flood costs neither parsing nor an upstream call.
  rateLimit: { name: 'events', by: 'client' },
  errors: ['validation_failed', 'rate_limited', 'upstream_error', 'upstream_unavailable'],
  example: EVENTS_EXAMPLE,
});

export const eventEndpoints = [listEvents] as const;

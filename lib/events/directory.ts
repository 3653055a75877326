// The built-in events directory: the feed's filters, sorting and paging over the events table.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '@/db';
import type { DB } from '@/db/types';
import type { EventsFeed, EventsQuery } from '../contract/events';
import { ACTIVITIES, matchActivity } from '../activities';
import { activityPhrases } from '../activities/lookup';
import { geocodeOffline } from '../geo';
import { normalizeText, splitParts } from '../geo/normalize';
import { US_STATES, buildQualifierTable, type RegionConstraint } from '../geo/regions';
import { ApiError } from '../core/errors';
import {
  bboxCenter,
  parseBbox,
  parseDateBound,
  parseList,
  parsePoint,
  type BoundingBox,
  type DateBound,
  type Point,
} from '../contract/event-params';
import { toEventItem } from './records';

type Where = ExpressionBuilder<DB, 'events'>;
type Condition = (eb: Where) => Expression<SqlBool>;

/** Events matching the query, one page of them, the total and the freshest scrape time. */
export async function searchDirectory(db: Database, query: EventsQuery, now: Date = new Date()): Promise<EventsFeed> {
  const bbox = query.bbox ? parseBbox(query.bbox) : null;
  const reference = referencePoint(query, bbox);
  if (query.sort === 'distance' && !reference) {
    throw new ApiError('validation_failed', 'sort=distance needs a reference point', {
      hint: 'Add near=lat,lon (or a bbox or city to measure from).',
      fields: { near: 'required for sort=distance unless bbox or a known city is given' },
    });
  }
  const conditions = filters(query, bbox, now);
  const matching = db.selectFrom('events').where((eb) => eb.and(conditions.map((condition) => condition(eb))));

  const origin = reference ? sql`ll_to_earth(${reference.latitude}, ${reference.longitude})` : null;
  let page = matching
    .select([
      'id',
      'uid',
      'source',
      'title',
      'description',
      'starts_at',
      'ends_at',
      'all_day',
      'timezone',
      'venue_name',
      'venue_address',
      'city',
      'region',
      'country',
      'latitude',
      'longitude',
      'activity_ids',
      'categories',
      'url',
      'scraped_at',
    ])
    .select(
      origin
        ? sql<number | null>`earth_distance(earth_point::earth, ${origin}) / 1000`.as('distance_km')
        : sql<number | null>`null::float8`.as('distance_km'),
    );
  if (query.sort === 'distance' && origin) {
    // cube's <-> (chord length) ranks like great-circle distance and can use the GiST index.
    page = page.orderBy(sql`earth_point <-> ${origin}`, (o) => o.asc().nullsLast());
  }
  const [rows, { total, scraped_at_max }] = await Promise.all([
    page.orderBy('starts_at').orderBy('id').limit(query.limit).offset(query.offset).execute(),
    matching
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.max('scraped_at').as('scraped_at_max')])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    events: rows.map((row) => toEventItem(row, row.distance_km)),
    total: Number(total),
    scraped_at_max: scraped_at_max ? new Date(scraped_at_max).toISOString() : null,
  };
}

function referencePoint(query: EventsQuery, bbox: BoundingBox | null): Point | null {
  if (query.near) return parsePoint(query.near);
  if (bbox) return bboxCenter(bbox);
  if (query.city) {
    const place = geocodeOffline(query.city);
    if (place) return { latitude: place.latitude, longitude: place.longitude };
  }
  return null;
}

function filters(query: EventsQuery, bbox: BoundingBox | null, now: Date): Condition[] {
  const out: Condition[] = [];
  const from = query.date_from ? parseDateBound(query.date_from) : null;
  const to = query.date_to ? parseDateBound(query.date_to) : null;
  // Without date_from the feed is "what is still ahead": events not over yet.
  out.push(from ? startsOnOrAfter(from) : (eb) => eb('ends_at', '>=', now));
  if (to) out.push(startsOnOrBefore(to));

  const activities = query.activities ?? [];
  if (activities.length > 0) out.push(() => sql<SqlBool>`activity_ids && ${sql.val(activities)}::text[]`);

  const sources = parseList(query.sources);
  if (sources.length > 0) out.push((eb) => eb('source', 'in', sources));

  const q = query.q?.trim();
  if (q) out.push(textSearch(q));

  if (bbox) out.push(inBox(bbox));
  const city = query.city?.trim();
  if (city) out.push(inCity(city));
  const region = query.region?.trim();
  if (region) out.push(inRegion(region));
  return out;
}

/**
 * Full-text search over the text and the event's own categories; a query that names a catalog
 * activity ("climbing", "board games") also finds events tagged with it, or whose text or
 * categories mention any of its names and aliases ("Bouldering after work", "Catan night" in "Game night").
 */
function textSearch(q: string): Condition {
  const inCategories = (query: string) =>
    sql<SqlBool>`to_tsvector('english', array_to_string(categories, ' ')) @@ websearch_to_tsquery('english', ${query})`;
  const words = sql<SqlBool>`(search @@ websearch_to_tsquery('english', ${q}) or ${inCategories(q)})`;
  const id = matchActivity(q);
  const activity = id === undefined ? undefined : ACTIVITIES.find((a) => a.id === id);
  if (!activity) return () => words;
  const aliases = activityPhrases(activity)
    .map((phrase) => `"${phrase.replace(/"/g, '')}"`)
    .join(' or ');
  return () =>
    sql<SqlBool>`(${words} or activity_ids && ${sql.val([activity.id])}::text[] or search @@ websearch_to_tsquery('english', ${aliases}) or ${inCategories(aliases)})`;
}

function startsOnOrAfter(bound: DateBound): Condition {
  return bound.kind === 'date' ? (eb) => eb('local_date', '>=', bound.date) : (eb) => eb('starts_at', '>=', bound.at);
}

function startsOnOrBefore(bound: DateBound): Condition {
  return bound.kind === 'date' ? (eb) => eb('local_date', '<=', bound.date) : (eb) => eb('starts_at', '<=', bound.at);
}

function inBox(box: BoundingBox): Condition {
  return (eb) =>
    eb.and([
      eb('latitude', '>=', box.minLat),
      eb('latitude', '<=', box.maxLat),
      box.minLon <= box.maxLon
        ? eb.and([eb('longitude', '>=', box.minLon), eb('longitude', '<=', box.maxLon)])
        : // Across the antimeridian: east of minLon or west of maxLon.
          eb.or([eb('longitude', '>=', box.minLon), eb('longitude', '<=', box.maxLon)]),
    ]);
}

/**
 * "Portland" matches every Portland; "Portland, Maine" only the one in Maine.
 * Nicknames and other spellings the gazetteer knows ("NYC", "München") match too.
 */
function inCity(text: string): Condition {
  const parts = splitParts(text);
  const names = new Set<string>([(parts[0] ?? text).toLowerCase()]);
  const place = geocodeOffline(text);
  if (place) names.add(place.name.toLowerCase());
  const qualified = parts.length > 1 && place;
  return (eb) => {
    const byName = eb(eb.fn('lower', ['city']), 'in', [...names]);
    if (!qualified) return byName;
    return eb.and([
      byName,
      eb('country', '=', place.country),
      ...(place.region ? [eb('region', '=', place.region)] : []),
    ]);
  };
}

let qualifierTable: Map<string, RegionConstraint[]> | undefined;

/**
 * A state, province or country, by name or code. Ambiguous codes keep every
 * reading: "CA" is California or Canada, "DE" Delaware or Germany.
 */
function inRegion(text: string): Condition {
  qualifierTable ??= buildQualifierTable([]);
  const readings = [...(qualifierTable.get(normalizeText(text)) ?? [])];
  if (/^[a-z]{2}$/i.test(text)) readings.push({ country: text.toUpperCase() });
  return (eb) =>
    eb.or([
      eb(eb.fn('lower', ['region']), '=', text.toLowerCase()),
      ...readings.flatMap((reading) => {
        if (!reading.admin) return [eb('country', '=', reading.country)];
        const state = reading.country === 'US' ? US_STATES[reading.admin] : undefined;
        return state ? [eb.and([eb('country', '=', 'US'), eb('region', '=', state)])] : [];
      }),
    ]);
}

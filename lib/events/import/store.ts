// Writes one source's events: upsert by (source, uid), then remove what the feed no
// longer lists (cancelled, excluded or deleted), all in one transaction.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { NewEvent } from '@/db/types';
import { sanitizeText } from '@/lib/contract/text';
import type { EventDraft } from './draft';
import { activitiesForEvent, placeForEvent } from './enrich';

/** The bundled sample calendar's source name; it only fills an otherwise empty directory. */
export const SAMPLE_SOURCE = 'sample';
const BATCH = 500;

export interface StoreResult {
  upserted: number;
  removed: number;
  /** Sample events removed because real ones arrived. */
  sampleRemoved: number;
}

// Feeds are other people's text: NUL (which PostgreSQL refuses, failing the whole import),
// other control characters and lone surrogates are cleaned out rather than stored.
const line = (text: string) => sanitizeText(text, 'single_line');
const orNull = (text: string | null) => (text === null ? null : line(text));

export function toEventRows(
  source: string,
  drafts: readonly EventDraft[],
  scrapedAt: Date,
  defaultCity?: string | null,
): NewEvent[] {
  // Occurrences of one series share words and place: resolve them once.
  const memo = new Map<string, { activities: string[]; place: ReturnType<typeof placeForEvent> }>();
  const byUid = new Map<string, NewEvent>();
  for (const draft of drafts) {
    const key = JSON.stringify([
      draft.title,
      draft.description,
      draft.categories,
      draft.activities,
      draft.location,
      draft.venueName,
      draft.venueAddress,
      draft.city,
      draft.region,
      draft.country,
      draft.coords,
    ]);
    let resolved = memo.get(key);
    if (!resolved) {
      resolved = { activities: activitiesForEvent(draft), place: placeForEvent(draft, defaultCity) };
      memo.set(key, resolved);
    }
    const { place } = resolved;
    // A feed that repeats a UID: the last one wins, as a later entry would on the next refresh.
    const uid = line(draft.uid);
    byUid.set(uid, {
      source: line(source),
      uid,
      series_uid: line(draft.seriesUid),
      title: line(draft.title),
      description: draft.description === null ? null : sanitizeText(draft.description, 'free_text'),
      starts_at: draft.start,
      ends_at: draft.end,
      all_day: draft.allDay,
      timezone: orNull(draft.timezone),
      local_date: draft.localDate,
      venue_name: orNull(place.venueName),
      venue_address: orNull(place.venueAddress),
      city: orNull(place.city),
      region: orNull(place.region),
      country: orNull(place.country),
      latitude: place.coords?.latitude ?? null,
      longitude: place.coords?.longitude ?? null,
      activity_ids: resolved.activities,
      categories: draft.categories.map(line),
      url: orNull(draft.url),
      scraped_at: scrapedAt,
    });
  }
  return [...byUid.values()];
}

export async function replaceSourceEvents(
  db: Database,
  source: string,
  rows: readonly NewEvent[],
  scrapedAt: Date,
): Promise<StoreResult> {
  return db.transaction().execute(async (trx) => {
    // One import per source at a time, across processes (CLI, job, other instances).
    await sql`select pg_advisory_xact_lock(hashtext(${`events:${source}`}))`.execute(trx);
    for (let at = 0; at < rows.length; at += BATCH) {
      const batch = rows.slice(at, at + BATCH).map((row) => ({
        ...row,
        earth_point:
          row.latitude != null && row.longitude != null
            ? sql<string>`ll_to_earth(${row.latitude}, ${row.longitude})`
            : null,
      }));
      await trx
        .insertInto('events')
        .values(batch)
        .onConflict((oc) =>
          oc.constraint('events_source_uid_key').doUpdateSet((eb) => ({
            series_uid: eb.ref('excluded.series_uid'),
            title: eb.ref('excluded.title'),
            description: eb.ref('excluded.description'),
            starts_at: eb.ref('excluded.starts_at'),
            ends_at: eb.ref('excluded.ends_at'),
            all_day: eb.ref('excluded.all_day'),
            timezone: eb.ref('excluded.timezone'),
            local_date: eb.ref('excluded.local_date'),
            venue_name: eb.ref('excluded.venue_name'),
            venue_address: eb.ref('excluded.venue_address'),
            city: eb.ref('excluded.city'),
            region: eb.ref('excluded.region'),
            country: eb.ref('excluded.country'),
            latitude: eb.ref('excluded.latitude'),
            longitude: eb.ref('excluded.longitude'),
            earth_point: eb.ref('excluded.earth_point'),
            activity_ids: eb.ref('excluded.activity_ids'),
            categories: eb.ref('excluded.categories'),
            url: eb.ref('excluded.url'),
            scraped_at: eb.ref('excluded.scraped_at'),
            updated_at: sql`now()`,
          })),
        )
        .execute();
    }
    // Every row this import saw carries exactly this scraped_at; the rest are gone from the feed.
    const removed = await trx
      .deleteFrom('events')
      .where('source', '=', source)
      .where('scraped_at', '!=', scrapedAt)
      .executeTakeFirst();
    let sampleRemoved = 0;
    if (source !== SAMPLE_SOURCE && rows.length > 0) {
      const sample = await trx.deleteFrom('events').where('source', '=', SAMPLE_SOURCE).executeTakeFirst();
      sampleRemoved = Number(sample.numDeletedRows);
    }
    return { upserted: rows.length, removed: Number(removed.numDeletedRows), sampleRemoved };
  });
}

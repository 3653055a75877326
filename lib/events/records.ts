// Maps an events row to the API's event item (one function per record type).
import type { EventRow } from '@/db/types';
import type { EventItem } from '../contract/events';

export type EventItemRow = Omit<
  EventRow,
  'search' | 'earth_point' | 'created_at' | 'updated_at' | 'series_uid' | 'local_date'
>;

const iso = (value: Date | string) => new Date(value).toISOString();

export function toEventItem(row: EventItemRow, distanceKm: number | null = null): EventItem {
  return {
    id: row.id,
    uid: row.uid,
    source: row.source,
    title: row.title,
    description: row.description,
    start: iso(row.starts_at),
    end: iso(row.ends_at),
    all_day: row.all_day,
    timezone: row.timezone,
    venue_name: row.venue_name,
    venue_address: row.venue_address,
    city: row.city,
    region: row.region,
    country: row.country,
    coords:
      row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null,
    activities: row.activity_ids,
    categories: row.categories,
    url: row.url,
    distance_km: distanceKm === null ? null : Math.round(distanceKm * 100) / 100,
    scraped_at: iso(row.scraped_at),
  };
}

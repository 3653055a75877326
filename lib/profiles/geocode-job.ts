// The geocode job: places a profile's location with GEOCODER_URL when the offline
// gazetteer could not. Never blocks a request; applies only if nothing changed since.
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { geocodeRemote } from '../geo';
import { waitForSlot } from '../jobs/throttle';
import { labelFromPublicPoint, timezoneColumns } from './fields';
import { missingFields } from './onboarding';

// 10% over Nominatim's 1 request/s, so jitter between our send and its arrival never packs two into one second.
export const GEOCODER_INTERVAL_MS = 1100;

export async function geocodeProfileLocation(
  db: Database,
  userId: string,
  label: string,
  geocoderUrl: string,
): Promise<void> {
  await waitForSlot(db, 'geocoder', GEOCODER_INTERVAL_MS);
  const place = await geocodeRemote(geocoderUrl, label);
  if (!place) return;
  await db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
    // The person may have moved or sent coords meanwhile: their newer data wins.
    if (!current || current.location !== label || current.latitude !== null) return;
    const placed = { latitude: place.latitude, longitude: place.longitude, coords_source: 'geocoder' as const };
    const columns = { ...placed, ...timezoneColumns({}, placed, current) };
    const next = { ...current, ...columns } as UserRow;
    const updated = await trx
      .updateTable('users')
      .set({ ...columns, onboarding_complete: missingFields(next).length === 0 })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    // The public label comes from the public point, which PostgreSQL has just computed.
    await labelFromPublicPoint(trx, updated);
  });
}

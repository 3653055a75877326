// Turns the plain-English profile input of register and PATCH into stored columns
// and the warnings an agent should relay (unmatched activities, the schedule summary).
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow, UserUpdate } from '@/db/types';
import { enqueue, QUEUES } from '../jobs/boss';
import { canonicalizeActivities } from '../activities';
import { gridToBits, resolveAvailability } from '../availability';
import { geocodeOffline, nearestPlace, strongNamesakes, unplacedDistrict } from '../geo';
import { timezoneForCoords } from '../geo/timezone';
import type { z } from 'zod';
import type { ProfileUpdate, warningsSchema } from '../contract/profiles';

export type ProfileColumns = Partial<
  Pick<
    UserUpdate,
    | 'display_name'
    | 'about_me'
    | 'city'
    | 'location'
    | 'home_location'
    | 'public_location'
    | 'latitude'
    | 'longitude'
    | 'coords_source'
    | 'timezone'
    | 'timezone_source'
    | 'gender'
    | 'birthday'
    | 'show_age_by_decade'
    | 'availability_text'
    | 'schedule'
  >
> & { activities?: string[] };

export type ProfileWarnings = z.infer<typeof warningsSchema>;

/** The writable profile fields, as register and PATCH both accept them (null clears). */
export type ProfileInput = Omit<ProfileUpdate, 'photoURL' | 'agentName' | 'agentSessionId'>;

const present = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

export interface ResolvedProfile {
  columns: ProfileColumns;
  warnings: ProfileWarnings;
  /** A location label the offline gazetteer could not place: worth an online lookup. */
  unplacedLocation: string | null;
  /**
   * New coordinates came without a label the gazetteer knows: once written, the public
   * label is the city nearest the public point (labelFromPublicPoint), not the exact one.
   */
  labelFromPublicPoint: boolean;
}

/** Notes on activities read in other words, per request (the rest are in the saved list). */
const MAX_ACTIVITY_NOTES = 5;

/**
 * `normalized`: what parsing the request already read differently from how it was
 * written (forgiving input); reported first in warnings.normalized.
 */
export function resolveProfileInput(input: ProfileInput, normalized: readonly string[] = []): ResolvedProfile {
  const columns: ProfileColumns = {};
  const warnings: ProfileWarnings = {};
  const notes = [...normalized];

  if (input.displayName !== undefined) columns.display_name = input.displayName;
  if (input.aboutMe !== undefined) columns.about_me = input.aboutMe;
  if (input.gender !== undefined) columns.gender = input.gender;
  if (input.birthday !== undefined) columns.birthday = input.birthday;
  if (present(input.showAgeByDecade)) columns.show_age_by_decade = input.showAgeByDecade;

  const location = resolveLocation(input, warnings, notes);
  Object.assign(columns, location.columns);

  if (input.activities === null) columns.activities = [];
  if (present(input.activities)) {
    const { ids, unmatched, suggestions, readAs } = canonicalizeActivities(input.activities);
    columns.activities = ids;
    // What was saved in other words than the person's ("climbing" as rock_climbing), a few at most.
    for (const { entry, ids: read } of readAs.slice(0, MAX_ACTIVITY_NOTES))
      notes.push(`activities: ${JSON.stringify(entry)} was read as ${read.join(', ')}`);
    if (unmatched.length > 0) {
      warnings.activities_unmatched = unmatched;
      // Always beside activities_unmatched, empty when nothing is close, so agents need not test for it.
      warnings.activities_suggestions = suggestions;
    }
  }

  const availabilityGiven = [input.availability_text, input.schedule, input.availability].some((v) => v !== undefined);
  if (availabilityGiven) {
    // availability as a string is plain English meant for availability_text (the forms merge).
    const textInAvailability = typeof input.availability === 'string' ? input.availability : null;
    if (textInAvailability !== null)
      notes.push(`availability: the text ${JSON.stringify(textInAvailability)} was read as availability_text`);
    const text = [input.availability_text, textInAvailability].filter(present).join('; ') || null;
    const { grid, summary, unparsed, rounded, corrected } = resolveAvailability({
      availability_text: text ?? undefined,
      schedule: input.schedule ?? undefined,
      availability: typeof input.availability === 'string' ? undefined : (input.availability ?? undefined),
    });
    columns.availability_text = text;
    columns.schedule = grid ? gridToBits(grid) : null;
    if (summary) warnings.schedule_summary = summary;
    if (unparsed.length > 0) warnings.availability_unparsed = unparsed;
    notes.push(...[...corrected, ...rounded].map((r) => `availability_text: ${r}`));
  }
  if (notes.length > 0) warnings.normalized = notes;
  const unplacedLocation = warnings.location_unresolved && present(columns.location) ? columns.location : null;
  return { columns, warnings, unplacedLocation, labelFromPublicPoint: location.labelFromPublicPoint };
}

type ZoneState = Pick<UserRow, 'latitude' | 'longitude' | 'timezone_source'>;

/**
 * The zone columns a write leaves. A zone the person names stays until they send null;
 * otherwise the zone follows the coordinates (derived offline), so a move across a border
 * moves it too. `current`: the row before the write (null at registration).
 */
export function timezoneColumns(
  input: Pick<ProfileInput, 'timezone'>,
  columns: ProfileColumns,
  current: ZoneState | null,
): Pick<ProfileColumns, 'timezone' | 'timezone_source'> {
  if (present(input.timezone)) return { timezone: input.timezone, timezone_source: 'person' };
  const coordsWritten = columns.latitude !== undefined;
  if (current && input.timezone === undefined && (current.timezone_source === 'person' || !coordsWritten)) return {};
  const latitude = coordsWritten ? (columns.latitude ?? null) : (current?.latitude ?? null);
  const longitude = coordsWritten ? (columns.longitude ?? null) : (current?.longitude ?? null);
  const timezone = timezoneForCoords(latitude, longitude);
  return { timezone, timezone_source: timezone ? 'coords' : null };
}

/** Queues the online lookup for a location the gazetteer missed (when GEOCODER_URL is set). */
export async function queueGeocodeIfNeeded(
  trx: Database,
  userId: string,
  resolved: ResolvedProfile,
  geocoderEnabled: boolean,
): Promise<void> {
  if (!resolved.unplacedLocation || !geocoderEnabled) return;
  await enqueue(trx, QUEUES.geocodeLocation, { userId, label: resolved.unplacedLocation });
  resolved.warnings.location_unresolved +=
    ' An online lookup is queued; GET /api/v1/me.json shows coords once it succeeds.';
}

/**
 * 0 for a coordinate within a nanometre of it: PostgreSQL's float8 arithmetic (the public
 * point, 0009) refuses results that underflow, and 7.4e-323 is a valid latitude on the wire.
 */
const flushTiny = (degrees: number) => (Math.abs(degrees) < 1e-12 ? 0 : degrees);

/**
 * location (or the deprecated city) is the person's own label; the public label is
 * always city-level from the gazetteer, so a typed street address is never shown.
 * Coordinates come from the client, else from the offline gazetteer.
 */
function resolveLocation(
  input: ProfileInput,
  warnings: ProfileWarnings,
  notes: string[],
): { columns: ProfileColumns; labelFromPublicPoint: boolean } {
  const columns: ProfileColumns = {};
  let labelFromPublicPoint = false;
  if (input.city !== undefined) columns.city = input.city;
  const label = input.location !== undefined ? input.location : present(input.city) ? input.city : undefined;
  if (label !== undefined) {
    columns.location = label;
    columns.home_location = label;
  }

  if (present(input.coords)) {
    columns.latitude = flushTiny(input.coords.latitude);
    columns.longitude = flushTiny(input.coords.longitude);
    columns.coords_source = 'client';
    // The city the person named; else the one nearest their public point, after the
    // write (the city nearest the exact point would tell which side of a boundary between
    // two cities they live on).
    const named = present(label) ? geocodeOffline(label) : null;
    if (named) columns.public_location = named.label;
    else labelFromPublicPoint = true;
  } else if (input.coords === null || label === null) {
    Object.assign(columns, { latitude: null, longitude: null, coords_source: null, public_location: null });
    if (present(label)) Object.assign(columns, geocodeLabel(label, warnings, notes));
  } else if (present(label)) {
    Object.assign(columns, geocodeLabel(label, warnings, notes));
  }
  return { columns, labelFromPublicPoint };
}

/**
 * Sets the public label of a row whose coordinates came without a known place name: the
 * city nearest its public point (PostgreSQL computes that point on write, so this runs
 * after it, in the same transaction). Returns the row as stored.
 */
export async function labelFromPublicPoint(trx: Database, row: UserRow): Promise<UserRow> {
  const place =
    row.public_latitude !== null && row.public_longitude !== null
      ? nearestPlace(row.public_latitude, row.public_longitude)
      : null;
  const label = place?.label ?? null;
  if (label === row.public_location) return row;
  return trx
    .updateTable('users')
    .set({ public_location: label })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

function geocodeLabel(label: string, warnings: ProfileWarnings, notes: string[]): ProfileColumns {
  const place = geocodeOffline(label);
  if (!place) {
    warnings.location_unresolved = `Could not place "${label}" on the map; send coords {latitude, longitude} so radius search works.`;
    return { latitude: null, longitude: null, coords_source: null, public_location: null };
  }
  const namesakes = strongNamesakes(label, place);
  if (namesakes.length > 0)
    notes.push(
      `location: ${JSON.stringify(label)} names several places: read as ${place.label}; it may also be ${namesakes.map((p) => p.label).join(' or ')} (add the region or country, or send coords)`,
    );
  const district = unplacedDistrict(label, place);
  if (district)
    notes.push(
      `location: ${JSON.stringify(district)} is not on the offline map: placed at the centre of ${place.label} (send coords for a nearer point)`,
    );
  return {
    latitude: place.latitude,
    longitude: place.longitude,
    coords_source: 'gazetteer',
    public_location: place.label,
  };
}

/**
 * One-off repair for labels written before public points existed (migration 0009), when
 * a point-only location was labelled by the city nearest the exact point: relabels every
 * person placed by coordinates (from the client or the geocoder) with the city their own
 * location names, else the one nearest their public point. Gazetteer-placed people keep
 * theirs (it is the city they named). Returns how many labels changed.
 */
export async function relabelFromPublicPoints(db: Database, batchSize = 1000): Promise<number> {
  let changed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'location', 'public_location', 'public_latitude', 'public_longitude'])
      .where('id', '>', after)
      .where('public_latitude', 'is not', null)
      .where('coords_source', 'in', ['client', 'geocoder'])
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return changed;
    after = rows[rows.length - 1]!.id;
    const updates = rows.flatMap((row) => {
      const named = present(row.location) ? geocodeOffline(row.location) : null;
      const label = (named ?? nearestPlace(row.public_latitude!, row.public_longitude!))?.label ?? null;
      return label === row.public_location ? [] : [{ id: row.id, label }];
    });
    if (updates.length > 0) {
      await sql`update users set public_location = u.label
        from unnest(${updates.map((u) => u.id)}::uuid[], ${updates.map((u) => u.label)}::text[]) as u(id, label)
        where users.id = u.id`.execute(db);
      changed += updates.length;
    }
  }
}

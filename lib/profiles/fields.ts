// Turns the plain-English profile input of register and PATCH into stored columns
// and the warnings an agent should relay (unmatched activities, the schedule summary).
import type { Database } from '@/db';
import type { UserUpdate } from '@/db/types';
import { enqueue, QUEUES } from '../jobs/boss';
import { canonicalizeActivities } from '../activities';
import { gridToBits, resolveAvailability } from '../availability';
import { geocodeOffline, nearestPlace } from '../geo';
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
}

export function resolveProfileInput(input: ProfileInput): ResolvedProfile {
  const columns: ProfileColumns = {};
  const warnings: ProfileWarnings = {};

  if (input.displayName !== undefined) columns.display_name = input.displayName;
  if (input.aboutMe !== undefined) columns.about_me = input.aboutMe;
  if (input.gender !== undefined) columns.gender = input.gender;
  if (input.birthday !== undefined) columns.birthday = input.birthday;
  if (present(input.showAgeByDecade)) columns.show_age_by_decade = input.showAgeByDecade;

  Object.assign(columns, resolveLocation(input, warnings));

  if (input.activities === null) columns.activities = [];
  if (present(input.activities)) {
    const { ids, unmatched, suggestions } = canonicalizeActivities(input.activities);
    columns.activities = ids;
    if (unmatched.length > 0) {
      warnings.activities_unmatched = unmatched;
      if (Object.keys(suggestions).length > 0) warnings.activities_suggestions = suggestions;
    }
  }

  const availabilityGiven = [input.availability_text, input.schedule, input.availability].some((v) => v !== undefined);
  if (availabilityGiven) {
    const { grid, summary, unparsed } = resolveAvailability({
      availability_text: input.availability_text ?? undefined,
      schedule: input.schedule ?? undefined,
      availability: input.availability ?? undefined,
    });
    columns.availability_text = input.availability_text ?? null;
    columns.schedule = grid ? gridToBits(grid) : null;
    if (summary) warnings.schedule_summary = summary;
    if (unparsed.length > 0) warnings.availability_unparsed = unparsed;
  }
  const unplacedLocation = warnings.location_unresolved && present(columns.location) ? columns.location : null;
  return { columns, warnings, unplacedLocation };
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
  resolved.warnings.location_unresolved += ' An online lookup is queued; GET /api/v1/me.json shows coords once it succeeds.';
}

/**
 * location (or the deprecated city) is the person's own label; the public label is
 * always city-level from the gazetteer, so a typed street address is never shown.
 * Coordinates come from the client, else from the offline gazetteer.
 */
function resolveLocation(input: ProfileInput, warnings: ProfileWarnings): ProfileColumns {
  const columns: ProfileColumns = {};
  if (input.city !== undefined) columns.city = input.city;
  const label = input.location !== undefined ? input.location : present(input.city) ? input.city : undefined;
  if (label !== undefined) {
    columns.location = label;
    columns.home_location = label;
  }

  if (present(input.coords)) {
    columns.latitude = input.coords.latitude;
    columns.longitude = input.coords.longitude;
    columns.coords_source = 'client';
    const place = (present(label) ? geocodeOffline(label) : null) ?? nearestPlace(input.coords.latitude, input.coords.longitude);
    columns.public_location = place?.label ?? null;
  } else if (input.coords === null || label === null) {
    Object.assign(columns, { latitude: null, longitude: null, coords_source: null, public_location: null });
    if (present(label)) Object.assign(columns, geocodeLabel(label, warnings));
  } else if (present(label)) {
    Object.assign(columns, geocodeLabel(label, warnings));
  }
  return columns;
}

function geocodeLabel(label: string, warnings: ProfileWarnings): ProfileColumns {
  const place = geocodeOffline(label);
  if (!place) {
    warnings.location_unresolved = `Could not place "${label}" on the map; send coords {latitude, longitude} so radius search works.`;
    return { latitude: null, longitude: null, coords_source: null, public_location: null };
  }
  return {
    latitude: place.latitude,
    longitude: place.longitude,
    coords_source: 'gazetteer',
    public_location: place.label,
  };
}

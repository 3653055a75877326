// Turns a draft into what is stored: canonical activity ids from the feed's words,
// and a city (with coordinates) from the gazetteer.
import { canonicalizeActivities, matchActivity } from '@/lib/activities';
import { normalizeText as activityText } from '@/lib/activities/text';
import { distanceKm, geocodeOffline, nearestPlace, type Place } from '@/lib/geo';
import { normalizeText } from '@/lib/geo/normalize';
import { buildQualifierTable, type RegionConstraint } from '@/lib/geo/regions';
import type { EventDraft } from './draft';

export interface ResolvedPlace {
  venueName: string | null;
  venueAddress: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  coords: { latitude: number; longitude: number } | null;
}

// Longer phrases first ("trail running" before "running"); four words cover every catalog alias that matters.
const MAX_PHRASE_WORDS = 4;
// Far past this a description is an essay; its first part says what the event is.
const MAX_SCANNED_WORDS = 200;
// GEO is trusted over the gazetteer; a named city farther than this from it is a different place.
const CITY_GEO_TOLERANCE_KM = 60;

/**
 * Activity ids for an event: those the feed names, its categories, and activity
 * phrases in its title. The description is read only when those find nothing,
 * because it mentions much that the event is not about ("walk to the station").
 */
export function activitiesForEvent(
  draft: Pick<EventDraft, 'title' | 'description' | 'categories' | 'activities'>,
): string[] {
  const ids = new Set<string>([
    ...canonicalizeActivities(draft.activities).ids,
    ...canonicalizeActivities(draft.categories).ids,
    ...draft.categories.flatMap(activitiesInText),
    ...activitiesInText(draft.title),
  ]);
  if (ids.size === 0 && draft.description) for (const id of activitiesInText(draft.description)) ids.add(id);
  return [...ids];
}

/** Activity ids named anywhere in free text: exact catalog names and aliases, longest phrase first. */
export function activitiesInText(text: string): string[] {
  const words = activityText(text).split(' ').filter(Boolean).slice(0, MAX_SCANNED_WORDS);
  const covered = new Array<boolean>(words.length).fill(false);
  const ids: string[] = [];
  for (let size = Math.min(MAX_PHRASE_WORDS, words.length); size >= 1; size--) {
    for (let at = 0; at + size <= words.length; at++) {
      if (covered.slice(at, at + size).some(Boolean)) continue;
      const id = matchActivity(words.slice(at, at + size).join(' '));
      if (!id) continue;
      if (!ids.includes(id)) ids.push(id);
      covered.fill(true, at, at + size);
    }
  }
  return ids;
}

let qualifiers: Map<string, RegionConstraint[]> | undefined;
function isRegionName(text: string): boolean {
  qualifiers ??= buildQualifierTable([]);
  return qualifiers.has(normalizeText(text));
}

/** "13355 Berlin" -> "Berlin", "OR 97209" -> "OR", "Bernauer Str. 63" -> "Bernauer Str.". */
function withoutNumbers(part: string): string {
  return part
    .split(/\s+/)
    .filter((word) => !/\d/.test(word))
    .join(' ')
    .trim();
}

/**
 * The city a free-text location names. Addresses end in "city, region, country",
 * so the shortest tail that the gazetteer places wins; tails that start with a
 * bare region ("OR, USA") are tried last, as they rarely name a city.
 */
export function cityInLocation(location: string): { place: Place; partIndex: number } | null {
  const parts = location.split(',').map((part) => withoutNumbers(part.trim()));
  const deferred: number[] = [];
  for (let index = parts.length - 1; index >= 0; index--) {
    const head = parts[index];
    if (!head) continue;
    if (isRegionName(head)) {
      deferred.push(index);
      continue;
    }
    const place = geocodeOffline(parts.slice(index).filter(Boolean).join(', '));
    if (place) return { place, partIndex: index };
  }
  for (const index of deferred) {
    const place = geocodeOffline(parts.slice(index).filter(Boolean).join(', '));
    if (place) return { place, partIndex: index };
  }
  return null;
}

/** Venue, city and coordinates, from what the feed states first and the gazetteer second. */
export function placeForEvent(draft: EventDraft, defaultCity?: string | null): ResolvedPlace {
  const located = draft.location ? cityInLocation(draft.location) : null;
  const locationParts = draft.location
    ? draft.location
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [];

  // Venue: stated, else the location's first part unless that part is the city itself.
  let venueName = draft.venueName;
  let venueAddress = draft.venueAddress;
  if (!venueName && locationParts.length > 0 && !(located && located.partIndex === 0)) {
    venueName = locationParts[0] ?? null;
    venueAddress ??= locationParts.length > 1 ? locationParts.slice(1).join(', ') : null;
  }

  let place: Place | null = null;
  if (draft.city) place = geocodeOffline([draft.city, draft.region, draft.country].filter(Boolean).join(', '));
  place ??= located?.place ?? null;
  if (place && draft.coords && distanceKm(place, draft.coords) > CITY_GEO_TOLERANCE_KM) place = null;
  if (!place && draft.coords)
    place = nearestPlace(draft.coords.latitude, draft.coords.longitude, CITY_GEO_TOLERANCE_KM);
  if (!place && !draft.city && !draft.coords && defaultCity) place = geocodeOffline(defaultCity);

  return {
    venueName,
    venueAddress,
    city: draft.city ?? place?.name ?? null,
    region: draft.region ?? place?.region ?? null,
    country: draft.country ? countryCode(draft.country) : (place?.country ?? null),
    coords: draft.coords ?? (place ? { latitude: place.latitude, longitude: place.longitude } : null),
  };
}

/** ISO codes stay; a country name the gazetteer knows ("Germany") becomes its code. */
function countryCode(text: string): string {
  if (/^[a-z]{2}$/i.test(text)) return text.toUpperCase();
  qualifiers ??= buildQualifierTable([]);
  const country = (qualifiers.get(normalizeText(text)) ?? []).find((reading) => !reading.admin);
  return country?.country ?? text;
}

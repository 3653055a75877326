// A person's IANA time zone: derived offline from coordinates (tz-lookup's compact map of
// the zone boundaries), or named by the person. Every stored name is one of KNOWN_TIMEZONES,
// spelled as listed there, so code that keys on names (Discover's per-zone shifts) can
// enumerate them all.
import tzlookup from '@photostructure/tz-lookup';

/** Where no zone is known at all (nobody in a pair has a place yet). */
export const FALLBACK_TIMEZONE = 'UTC';

/**
 * Current names tz-lookup answers with that Node 20's ICU lists under an older alias
 * (Asia/Calcutta for Asia/Kolkata), and the fixed-offset zones it gives at sea.
 */
const CURRENT_NAMES = [
  'UTC',
  'Etc/UTC',
  'Etc/GMT',
  ...Array.from({ length: 12 }, (_, i) => `Etc/GMT+${i + 1}`),
  ...Array.from({ length: 14 }, (_, i) => `Etc/GMT-${i + 1}`),
  'Africa/Asmara',
  'America/Argentina/Buenos_Aires',
  'America/Argentina/Catamarca',
  'America/Argentina/Cordoba',
  'America/Argentina/Jujuy',
  'America/Argentina/Mendoza',
  'America/Atikokan',
  'America/Indiana/Indianapolis',
  'America/Kentucky/Louisville',
  'America/Nuuk',
  'Asia/Ho_Chi_Minh',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Asia/Yangon',
  'Atlantic/Faroe',
  'Europe/Kyiv',
  'Pacific/Chuuk',
  'Pacific/Kanton',
  'Pacific/Pohnpei',
];

const accepted = (name: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** Every zone name a profile can hold, in its usual spelling. */
export const KNOWN_TIMEZONES: readonly string[] = [
  ...new Set([...Intl.supportedValuesOf('timeZone'), ...CURRENT_NAMES.filter(accepted)]),
].sort();
/** The zones a person picks from: current names only (Asia/Kolkata, not also Asia/Calcutta), no nautical Etc/GMT±N. */
export const SELECTABLE_TIMEZONES: readonly string[] = (() => {
  const current = new Set(CURRENT_NAMES);
  const superseded = new Set(
    CURRENT_NAMES.filter(accepted)
      .map((name) => new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone)
      .filter((name) => !current.has(name)),
  );
  return KNOWN_TIMEZONES.filter((name) => !superseded.has(name) && !name.startsWith('Etc/'));
})();
const byLowerCase = new Map(KNOWN_TIMEZONES.map((name) => [name.toLowerCase(), name]));

/** IANA-shaped: "Area/Place" words, or UTC; never an offset like "+01:00" (an offset is not a zone). */
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * The stored spelling of a zone name given in any letter case ("europe/lisbon"), an alias
 * resolved to the zone it stands for ("US/Eastern"), or null when it names no zone.
 */
export function canonicalTimezone(name: string): string | null {
  const trimmed = name.trim();
  if (!ZONE_SHAPE.test(trimmed)) return null;
  const known = byLowerCase.get(trimmed.toLowerCase());
  if (known) return known;
  if (!accepted(trimmed)) return null;
  return (
    byLowerCase.get(new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone.toLowerCase()) ??
    null
  );
}

/** The IANA zone at a point: offline, from tz-lookup's map (at sea, the nautical Etc/GMT±N). */
export function timezoneForPoint(latitude: number, longitude: number): string {
  const name = tzlookup(latitude, longitude);
  return canonicalTimezone(name) ?? FALLBACK_TIMEZONE;
}

/** A zone for possibly missing coordinates: null when there are none. */
export function timezoneForCoords(latitude: number | null, longitude: number | null): string | null {
  return latitude === null || longitude === null ? null : timezoneForPoint(latitude, longitude);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * Up to `max` known zones that look like what was typed: the city part ("Lisbon",
 * "new york") matched against each zone's last part, else the closest by edit distance.
 */
export function timezoneSuggestions(typed: string, max = 3): string[] {
  const words = typed
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (words === '') return [];
  const place = words.split('/').pop()!;
  const lastPart = (name: string) => name.toLowerCase().split('/').pop()!;
  const exactPlace = KNOWN_TIMEZONES.filter((name) => lastPart(name) === place);
  if (exactPlace.length > 0) return exactPlace.slice(0, max);
  const scored = KNOWN_TIMEZONES.map((name) => {
    const whole = editDistance(words, name.toLowerCase());
    return { name, whole, distance: Math.min(whole, editDistance(place, lastPart(name))) };
  })
    .filter((s) => s.distance <= Math.max(2, Math.floor(place.length / 3)))
    // Equally close places: the one whose area matches too (Europe/Madird → Europe/Madrid before Atlantic/Madeira).
    .sort((a, b) => a.distance - b.distance || a.whole - b.whole || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}

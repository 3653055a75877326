// The coarse location an assistant's host says the person is in (issue 47): ChatGPT sends
// `_meta["openai/userLocation"]` = {city?, region?, country?, timezone?, latitude?, longitude?}
// on every tools/call. A hint, never authority: only the MCP path reads it (lib/mcp/server.ts),
// only registration uses it, and only where the person gave nothing of their own.
//
// Only the coarse part is kept. latitude/longitude are dropped unread: the host's point is
// not the person's precise place (DESIGN.md: a person's exact point is private and theirs to
// give), and the named city with its region and country is enough for the gazetteer to tell
// namesakes apart ("Springfield, IL, US").
import { isCleanText } from '../core/text-rule';
import { LIMITS } from '../contract/schemas';
import { canonicalTimezone } from '../geo/timezone';
import type { ProfileColumns, ProfileWarnings } from './fields';

export interface HostLocation {
  city?: string;
  region?: string;
  country?: string;
  /** An IANA zone this server knows, in its stored spelling. */
  timezone?: string;
}

/** A place name longer than a city field is not a coarse location; a zone name is short too. */
const MAX_PART = LIMITS.city;
const MAX_ZONE = 64;

/** The part as a clean single line within `max`, or undefined (wrong type, too long, control characters). */
function part(value: unknown, max: number): string | undefined {
  // Length first: a huge string costs nothing more than this check.
  if (typeof value !== 'string' || value.length > max * 2) return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text !== '' && text.length <= max && isCleanText(text) ? text : undefined;
}

/**
 * The hint as this server uses it, or undefined when nothing usable is in it. Any other shape
 * (a string, an array, null, numbers where names go, unknown keys) is ignored, never an error.
 */
export function hostLocationFrom(value: unknown): HostLocation | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const hint = value as Record<string, unknown>;
  // Own properties only: a key named like one of Object.prototype's is not a hint.
  const read = (key: string) => (Object.hasOwn(hint, key) ? hint[key] : undefined);
  const zone = part(read('timezone'), MAX_ZONE);
  const found: HostLocation = {
    city: part(read('city'), MAX_PART),
    region: part(read('region'), MAX_PART),
    country: part(read('country'), MAX_PART),
    timezone: zone === undefined ? undefined : (canonicalTimezone(zone) ?? undefined),
  };
  const kept = Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined)) as HostLocation;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * The location label the hint stands for: its city, qualified by region and country as a
 * person would type it ("Springfield, IL, US"), so the gazetteer reads it as a typed one. A
 * region or country alone names no place to meet in: no label.
 */
export function hostLocationLabel(host: HostLocation | undefined): string | undefined {
  if (!host?.city) return undefined;
  const region = host.region && host.region.toLowerCase() !== host.city.toLowerCase() ? host.region : undefined;
  for (const parts of [
    [host.city, region, host.country],
    [host.city, host.country],
  ]) {
    const label = parts.filter(Boolean).join(', ');
    if (label.length <= LIMITS.location) return label;
  }
  return undefined;
}

const present = (value: unknown) => value !== undefined && value !== null;

/** The registration's own place: any of location, the deprecated city, or coords. */
function gavePlace(input: { location?: unknown; city?: unknown; coords?: unknown }): boolean {
  return present(input.location) || present(input.city) || present(input.coords);
}

/**
 * The location registration takes from the hint when the person gave no place at all, with
 * the note that says so; nothing when they gave one (theirs always wins) or the hint names
 * no city.
 */
export function hostLocationForSignup(
  input: { location?: unknown; city?: unknown; coords?: unknown },
  host: HostLocation | undefined,
): { location: string; note: string } | undefined {
  if (gavePlace(input)) return undefined;
  const label = hostLocationLabel(host);
  if (!label) return undefined;
  return {
    location: label,
    note: `location: none was given, so ${JSON.stringify(label)}, the coarse location the assistant's host sent, was used; the person can change it (location on PATCH /api/v1/me.json)`,
  };
}

/**
 * The zone columns with the hint's zone where the write left none: the person gave no zone
 * and their place (or the host's city) gives none. Stored as following the location
 * ('coords'), not as the person's choice: placing the person later replaces it. The note
 * goes into `warnings.normalized`.
 */
export function withHostTimezone(
  zone: Pick<ProfileColumns, 'timezone' | 'timezone_source'>,
  host: HostLocation | undefined,
  warnings: ProfileWarnings,
): Pick<ProfileColumns, 'timezone' | 'timezone_source'> {
  if (present(zone.timezone) || !host?.timezone) return zone;
  warnings.normalized = [
    ...(warnings.normalized ?? []),
    `timezone: none was given and no place set one, so ${JSON.stringify(host.timezone)}, from the assistant's host, was used; the person can change it (timezone or location on PATCH /api/v1/me.json)`,
  ];
  return { timezone: host.timezone, timezone_source: 'coords' };
}

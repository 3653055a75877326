// Onboarding completeness (SPEC 2.3): which fields a profile still needs to show in Discover.
// Below lib/photos and lib/profiles, since both recompute it; the advice texts stay in lib/profiles/onboarding.ts.
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

type OnboardingRow = Pick<
  UserRow,
  | 'display_name'
  | 'about_me'
  | 'gender'
  | 'birthday'
  | 'location'
  | 'latitude'
  | 'longitude'
  | 'activities'
  | 'schedule'
  | 'photo_url'
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
    schedule: row.schedule?.includes('1') ?? false,
    photo: filled(row.photo_url),
  };
  return DISCOVER_FIELDS.filter((field) => !checks[field]);
}

// Onboarding completeness (SPEC 2.3): the fields a profile needs to show in Discover.
import type { DiscoverField } from '../completeness/completeness';

// The rule itself sits in lib/completeness, below photos (a photo change recomputes it); re-exported here.
export { DISCOVER_FIELDS, type DiscoverField, missingFields } from '../completeness/completeness';

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

/**
 * The same, as words for the person (next_action_for_user is shown to them as is): no
 * field names, formats or API paths. coords and location are one thing to a person.
 */
const MISSING_IN_WORDS: Record<DiscoverField, string> = {
  displayName: 'the name others see',
  aboutMe: 'a few words about yourself',
  gender: 'your gender',
  birthday: 'your date of birth',
  location: 'the town or neighbourhood you are in',
  coords: 'the town or neighbourhood you are in',
  activities: 'what you like to do',
  schedule: 'when you are usually free',
  photo: 'a photo of yourself',
};

export function nextActionForUser(missing: readonly DiscoverField[]): string {
  if (missing.length === 0)
    return 'Your profile is complete and visible in Discover. You can now find buddies and receive requests.';
  const words = [...new Set(missing.map((field) => MISSING_IN_WORDS[field]))];
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return `Your account is ready. To be found by others, add ${list}.`;
}

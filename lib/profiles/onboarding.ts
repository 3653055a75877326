// Onboarding completeness (SPEC 2.3): the fields a profile needs to show in Discover, and
// (REQUIRE_PERSON_CONSENT, issue 41 §2) whether its person still has to say yes to being shown.
import type { UserRow } from '@/db/types';
import { type DiscoverField, missingFields as missingOf } from '../completeness/completeness';

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

/** The onboarding object of every answer that carries one (registration, me.json, me/complete.json, the photo upload). */
export interface Onboarding {
  complete: boolean;
  missing: DiscoverField[];
  /** True until the person says "Yes, show me to people nearby" on the web (REQUIRE_PERSON_CONSENT). */
  awaiting_person_consent: boolean;
}

export function onboardingOf(
  row: Parameters<typeof missingOf>[0] & Pick<UserRow, 'awaiting_person_consent'>,
): Onboarding {
  const missing = missingOf(row);
  return { complete: missing.length === 0, missing, awaiting_person_consent: row.awaiting_person_consent };
}

/** The words on the web app's button; the guides and next_action_for_user quote them. */
export const SHOW_ME_BUTTON = 'Yes, show me to people nearby';

/** What only the person can do, said to them: no assistant can do it for them. */
export const CONSENT_STEP_FOR_USER = `Nobody sees your profile until you say so: sign in on the web (the link in your email works) and choose "${SHOW_ME_BUTTON}".`;

export function nextActionForUser(missing: readonly DiscoverField[], awaitingPersonConsent = false): string {
  if (missing.length === 0)
    return awaitingPersonConsent
      ? `Your profile is complete. ${CONSENT_STEP_FOR_USER}`
      : 'Your profile is complete and visible in Discover. You can now find buddies and receive requests.';
  const words = [...new Set(missing.map((field) => MISSING_IN_WORDS[field]))];
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  const ready = `Your account is ready. To be found by others, add ${list}.`;
  return awaitingPersonConsent ? `${ready} ${CONSENT_STEP_FOR_USER}` : ready;
}

// The profile form's values: read from the API's profile, compared to find what changed, errors placed by field.

import type { OwnProfile } from '@/lib/contract/profiles';

export interface FormValues {
  displayName: string;
  aboutMe: string;
  location: string;
  /** '' = automatic (follows the location) */
  timezone: string;
  gender: string;
  birthday: string;
  showAgeByDecade: boolean;
  activities: string[];
  availability_text: string;
}

/** The form's labels, for the error summary's links. */
export const FIELD_LABELS: Record<string, string> = {
  displayName: 'Name',
  aboutMe: 'About you',
  location: 'Where you are',
  timezone: 'Time zone',
  gender: 'Gender',
  birthday: 'Birthday',
  activities: 'Activities',
  availability_text: 'When you’re free',
};

export const LIMITS = { displayName: 60, aboutMe: 600, location: 120, availability_text: 500 } as const;

export function valuesOf(profile: OwnProfile, names: Record<string, string>): FormValues {
  return {
    displayName: profile.displayName,
    aboutMe: profile.aboutMe ?? '',
    location: profile.location ?? '',
    timezone: profile.timezone_source === 'person' ? (profile.timezone ?? '') : '',
    gender: profile.gender ?? '',
    birthday: profile.birthday ?? '',
    showAgeByDecade: profile.showAgeByDecade,
    activities: profile.activities.map((id) => names[id] ?? id),
    availability_text: profile.availability_text ?? '',
  };
}

/** Only the fields the person changed, in the API's shape (empty optional fields clear). */
export function changes(base: FormValues, next: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const orNull = (s: string) => (s.trim() === '' ? null : s);
  if (next.displayName !== base.displayName) body.displayName = next.displayName;
  if (next.aboutMe !== base.aboutMe) body.aboutMe = orNull(next.aboutMe);
  if (next.location !== base.location) body.location = orNull(next.location);
  if (next.timezone !== base.timezone) body.timezone = next.timezone || null;
  if (next.gender !== base.gender) body.gender = next.gender || null;
  if (next.birthday !== base.birthday) body.birthday = next.birthday || null;
  if (next.showAgeByDecade !== base.showAgeByDecade) body.showAgeByDecade = next.showAgeByDecade;
  if (next.activities.join('\n') !== base.activities.join('\n')) body.activities = next.activities;
  if (next.availability_text !== base.availability_text) body.availability_text = orNull(next.availability_text);
  return body;
}

/** error.fields names like "activities.2" belong to the "activities" input. */
export function errorsByField(fields: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(fields ?? {})) {
    const base = name.split('.')[0] ?? name;
    out[base] ??= message;
  }
  return out;
}

// What the page calls each field and gender.

import type { GENDER_OPTIONS as GENDERS, SignupParam } from '@/lib/signup-link';

export const LABELS: Record<SignupParam, string> = {
  email: 'Email',
  name: 'Name',
  location: 'Location',
  gender: 'Gender',
  birthday: 'Birthday',
  about: 'About you',
  activities: 'Activities',
  availability: 'When you are free',
  photo: 'Photo',
  agent: 'Prepared by',
};

export const GENDER_LABELS: Record<(typeof GENDERS)[number], string> = {
  male: 'Male',
  female: 'Female',
  non_binary: 'Non-binary',
  prefer_not_to_say: 'Prefer not to say',
};

export function genderLabel(value: string): string {
  // Own keys only: the value comes from the link ("?gender=constructor" must not find Object).
  return Object.hasOwn(GENDER_LABELS, value) ? (GENDER_LABELS as Record<string, string>)[value]! : value;
}

// Words the web pages show for stored values.
import { getActivity } from '../activities';
import type { Gender } from '@/db/types';
import type { DiscoverField } from '../profiles/onboarding';

export const CHECKLIST_LABELS: Record<DiscoverField, { label: string; help: string }> = {
  displayName: { label: 'Your name', help: 'The name others see.' },
  aboutMe: { label: 'A few words about you', help: 'What you like doing and who you’d like to meet.' },
  gender: { label: 'Gender', help: 'You can choose “prefer not to say”.' },
  birthday: { label: 'Birthday', help: 'Others see your age, or just the decade if you prefer.' },
  location: { label: 'Where you are', help: 'A town or city; others only ever see the city.' },
  coords: { label: 'A place on the map', help: 'Comes from your location; needed to find people nearby.' },
  activities: { label: 'Activities', help: 'Things you’d like company for, in plain words.' },
  schedule: { label: 'When you’re free', help: 'For example “weekends and Wednesday evenings”.' },
  photo: { label: 'A photo', help: 'A clear photo of you.' },
};

export const GENDER_LABELS: Record<Gender, string> = {
  male: 'Man',
  female: 'Woman',
  non_binary: 'Non-binary',
  prefer_not_to_say: 'Prefer not to say',
};

export function activityName(id: string): string {
  return getActivity(id)?.name ?? id.replace(/_/g, ' ');
}

export { ageText } from './people';

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Server-rendered times are shown in UTC and say so, since the server cannot know the reader's zone. */
export function formatDateTime(value: Date | string): string {
  return `${dateFormat.format(new Date(value))} UTC`;
}

export function formatMonth(value: Date | string): string {
  return dayFormat.format(new Date(value));
}

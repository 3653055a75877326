// The review account's little world (REVIEW_ACCOUNT): who is in it, as a person would write their
// profile. Everything is made through the domain functions (./world.ts), so it stays valid as the
// schema and the rules move. Lisbon, so the times of day make sense on a reviewer's screen in
// Europe and the Americas alike.
import type { ProfileUpdate } from '../contract/profiles';

export interface SamplePerson {
  /** Which part of the sample they play (./world.ts). */
  role: 'reviewer' | 'chat' | 'plans' | 'host' | 'asks';
  /** The demo avatar drawn from its name (lib/discover/avatar.ts): no stored photo, no blob. */
  avatar: string;
  profile: ProfileUpdate & { displayName: string };
}

const LISBON = { latitude: 38.7223, longitude: -9.1393 };
const near = (northKm: number, eastKm: number) => ({
  latitude: LISBON.latitude + northKm / 111,
  longitude: LISBON.longitude + eastKm / 87,
});

export const SAMPLE_PEOPLE: readonly SamplePerson[] = [
  {
    role: 'reviewer',
    avatar: 'AR-210.svg',
    profile: {
      displayName: 'Alex Reviewer',
      aboutMe:
        'The review account for app directories: its buddies, chats, plans and meetup are samples, and no real member can see it.',
      location: 'Lisbon, Portugal',
      coords: near(0, 0),
      gender: 'prefer_not_to_say',
      birthday: '1990-05-14',
      activities: ['hiking', 'coffee', 'board games', 'running'],
      availability_text: 'weekday evenings after 6, weekends',
    },
  },
  {
    role: 'chat',
    avatar: 'AS-20.svg',
    profile: {
      displayName: 'Ana Sousa',
      aboutMe: 'Trail runner and coffee snob. Sintra on Saturdays whenever the weather allows.',
      location: 'Lisbon, Portugal',
      coords: near(1.2, -0.8),
      gender: 'female',
      birthday: '1992-09-03',
      activities: ['running', 'hiking', 'coffee'],
      availability_text: 'weekends, Tuesday and Thursday evenings',
    },
  },
  {
    role: 'plans',
    avatar: 'MR-140.svg',
    profile: {
      displayName: 'Marco Rossi',
      aboutMe: 'Moved here from Turin last year. Looking for people to hike the coast with.',
      location: 'Lisbon, Portugal',
      coords: near(-0.9, 1.4),
      gender: 'male',
      birthday: '1988-02-21',
      activities: ['hiking', 'cycling', 'coffee'],
      availability_text: 'weekends, Friday evenings',
    },
  },
  {
    role: 'host',
    avatar: 'PN-280.svg',
    profile: {
      displayName: 'Priya Nair',
      aboutMe: 'I host a board game evening most weeks. Newcomers always welcome.',
      location: 'Lisbon, Portugal',
      coords: near(2.1, 0.6),
      gender: 'female',
      birthday: '1994-11-30',
      activities: ['board games', 'coffee'],
      availability_text: 'weekday evenings after 7, Sunday afternoons',
    },
  },
  {
    role: 'asks',
    avatar: 'TC-330.svg',
    profile: {
      displayName: 'Tomás Costa',
      aboutMe: 'Weekend cyclist, weekday climber. Happy to show newcomers the city.',
      location: 'Lisbon, Portugal',
      coords: near(-1.6, -1.1),
      gender: 'male',
      birthday: '1991-07-08',
      activities: ['cycling', 'running', 'hiking'],
      availability_text: 'weekends, Wednesday evenings',
    },
  },
];

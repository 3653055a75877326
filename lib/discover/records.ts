// Maps a users row to the public card shown in Discover and beside shared free time.
import type { UserRow } from '@/db/types';
import type { DiscoverCard } from '../contract/discover';
import { ageFields, profileUrl } from '../profiles/records';

export type DiscoverCardSource = Pick<
  UserRow,
  'id' | 'slug' | 'display_name' | 'about_me' | 'public_location' | 'gender' | 'birthday' | 'show_age_by_decade' | 'activities' | 'photo_url'
>;

/** What a stranger may see (as on the public profile): never coordinates, email or birthday. */
export function toDiscoverCard(row: DiscoverCardSource, baseUrl: string): DiscoverCard {
  return {
    id: row.id,
    slug: row.slug,
    displayName: row.display_name,
    aboutMe: row.about_me,
    location: row.public_location,
    gender: row.gender,
    ...ageFields(row),
    activities: row.activities,
    photoURL: row.photo_url,
    profile_url: profileUrl(baseUrl, row.slug),
  };
}

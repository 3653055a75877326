// Maps a users row to the API's profile records (one function per record type).
import type { UserRow } from '@/db/types';
import { getActivity } from '../activities';
import { bitsToGrid, emptyGrid, summarizeGrid } from '../availability';
import type { DiscoverCard } from '../contract/discover';
import type { OwnProfile, ProfileView, PublicProfile } from '../contract/profiles';
import { ageOn, type UserCard } from '../contract/schemas';
import { onboardingOf } from './onboarding';

export function profileUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/u/${encodeURIComponent(slug)}`;
}

export function ageFields(row: Pick<UserRow, 'birthday' | 'show_age_by_decade'>): {
  age: number | null;
  age_bucket: string | null;
} {
  if (!row.birthday) return { age: null, age_bucket: null };
  const age = ageOn(row.birthday);
  const bucket = `${Math.floor(age / 10) * 10}s`;
  return { age: row.show_age_by_decade ? null : age, age_bucket: bucket };
}

function activityFields(row: Pick<UserRow, 'activities'>) {
  const detail = row.activities.flatMap((id) => {
    const activity = getActivity(id);
    return activity ? [{ id: activity.id, name: activity.name, category: activity.category }] : [];
  });
  return { activities: row.activities, activities_detail: detail };
}

function scheduleFields(row: Pick<UserRow, 'schedule'>) {
  const grid = row.schedule ? bitsToGrid(row.schedule) : emptyGrid();
  return { schedule: grid, schedule_summary: summarizeGrid(grid) };
}

/**
 * Who reads the own profile: the person (web session) or their registration token see the
 * exact point; a third-party OAuth client sees the public point others' distances use
 * (issue 28: a phished OAuth grant must not reveal where someone lives).
 */
export type CoordsAudience = 'exact' | 'public';

/** Exact coordinates for the person's session and own tokens; the public point for an OAuth client's token. */
export function coordsAudience(caller: { via: string; oauthClientId?: string }): CoordsAudience {
  return caller.via === 'bearer' && caller.oauthClientId ? 'public' : 'exact';
}

function coordsFor(row: UserRow, audience: CoordsAudience): OwnProfile['coords'] {
  if (audience === 'public')
    return row.public_latitude !== null && row.public_longitude !== null
      ? { latitude: row.public_latitude, longitude: row.public_longitude }
      : null;
  return row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null;
}

export function toOwnProfile(row: UserRow, baseUrl: string, audience: CoordsAudience = 'exact'): OwnProfile {
  return {
    id: row.id,
    slug: row.slug,
    email: row.email,
    displayName: row.display_name,
    aboutMe: row.about_me,
    city: row.city,
    location: row.location,
    homeLocation: row.home_location,
    public_location: row.public_location,
    coords: coordsFor(row, audience),
    coords_source: row.coords_source,
    timezone: row.timezone,
    timezone_source: row.timezone_source,
    gender: row.gender,
    birthday: row.birthday,
    ...ageFields(row),
    showAgeByDecade: row.show_age_by_decade,
    ...activityFields(row),
    availability_text: row.availability_text,
    ...scheduleFields(row),
    photoURL: siteUrl(row.photo_url, baseUrl),
    thumbnailURL: row.photo_url ? siteUrl(row.thumbnail_url, baseUrl) : null,
    profile_url: profileUrl(baseUrl, row.slug),
    onboarding: onboardingOf(row),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** A stored path of this site (demo avatars) as a URL on the host serving it now; a URL unchanged. */
export function siteUrl(stored: string | null, baseUrl: string): string | null {
  return stored?.startsWith('/') && !stored.startsWith('//') ? `${baseUrl}${stored}` : stored;
}

// Another person, as others see them: three records, each the one before plus more
// (user card ⊂ Discover card ⊂ public profile), so what is public is decided once.

/** The columns a user card needs, e.g. from a joined users row or a json_build_object. */
export type UserCardSource = Pick<UserRow, 'id' | 'slug' | 'display_name' | 'photo_url' | 'public_location'>;

/** The small public card shown beside a buddy request or a chat. */
export function toUserCard(row: UserCardSource, baseUrl: string): UserCard {
  return {
    id: row.id,
    slug: row.slug,
    displayName: row.display_name,
    photoURL: siteUrl(row.photo_url, baseUrl),
    location: row.public_location,
    profile_url: profileUrl(baseUrl, row.slug),
  };
}

/** The user-card columns of a joined `users as u`, prefixed so they sit beside another table's columns. */
export const JOINED_USER_CARD_COLUMNS = [
  'u.id as u_id',
  'u.slug as u_slug',
  'u.display_name as u_display_name',
  'u.photo_url as u_photo_url',
  'u.public_location as u_public_location',
] as const;

export interface JoinedUserCardSource {
  u_id: string;
  u_slug: string;
  u_display_name: string;
  u_photo_url: string | null;
  u_public_location: string | null;
}

export function toJoinedUserCard(row: JoinedUserCardSource, baseUrl: string): UserCard {
  return toUserCard(
    {
      id: row.u_id,
      slug: row.u_slug,
      display_name: row.u_display_name,
      photo_url: row.u_photo_url,
      public_location: row.u_public_location,
    },
    baseUrl,
  );
}

export type DiscoverCardSource = UserCardSource &
  Pick<UserRow, 'about_me' | 'gender' | 'birthday' | 'show_age_by_decade' | 'activities'>;

/** The card shown in Discover and beside shared free time: the user card plus what a stranger may read. */
export function toDiscoverCard(row: DiscoverCardSource, baseUrl: string): DiscoverCard {
  return {
    ...toUserCard(row, baseUrl),
    aboutMe: row.about_me,
    gender: row.gender,
    ...ageFields(row),
    activities: row.activities,
  };
}

/** The first word of a display name: what strangers see ("Ana Lima" → "Ana"). */
export function firstName(displayName: string): string {
  return displayName.trim().split(/\s+/)[0] || displayName;
}

/**
 * GET /users/{slug}/profile.json and the /u/{slug} page: the Discover card plus the rest
 * of the profile. The member view (a signed-in viewer) has everything; the public view
 * (anyone on the internet) keeps the first name, photo, city, about and activities, and
 * drops age, gender and the weekly schedule (when someone is free is not for strangers).
 */
export function toPublicProfile(row: UserRow, baseUrl: string, view: ProfileView): PublicProfile {
  const full: PublicProfile = {
    ...toDiscoverCard(row, baseUrl),
    view,
    ...activityFields(row),
    ...scheduleFields(row),
    thumbnailURL: row.photo_url ? siteUrl(row.thumbnail_url, baseUrl) : null,
    discoverable: row.onboarding_complete,
    member_since: new Date(row.created_at).toISOString(),
  };
  if (view === 'member') return full;
  return {
    ...full,
    displayName: firstName(row.display_name),
    gender: null,
    age: null,
    age_bucket: null,
    schedule: null,
    schedule_summary: null,
  };
}

import type { Metadata } from 'next';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { SELECTABLE_TIMEZONES } from '@/lib/geo/timezone';
import { toOwnProfile } from '@/lib/profiles/records';
import { activityNames } from '@/lib/web/activity-names';
import { ProfileEditor } from '@/app/_components/profile-editor';

export const metadata: Metadata = { title: 'Your profile' };

export default async function ProfilePage() {
  const { user } = await requireSession('/account/profile');
  const profile = toOwnProfile(user, config().publicBaseUrl);
  return (
    <>
      <h1>Your profile</h1>
      <p className="muted">Changes here are the same as your agent’s: both go through one set of rules.</p>
      <ProfileEditor initial={profile} activityNames={activityNames()} timezones={SELECTABLE_TIMEZONES} />
    </>
  );
}

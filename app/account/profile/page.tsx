import type { Metadata } from 'next';
import { ACTIVITIES } from '@/lib/activities';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { toOwnProfile } from '@/lib/profiles/records';
import { ProfileEditor } from '../../_components/profile-editor';

export const metadata: Metadata = { title: 'Your profile' };

export default async function ProfilePage() {
  const { user } = await requireSession('/account/profile');
  const profile = toOwnProfile(user, config().publicBaseUrl);
  const activityNames = Object.fromEntries(ACTIVITIES.map((a) => [a.id, a.name]));
  return (
    <>
      <h1>Your profile</h1>
      <p className="muted">Changes here are the same as your agent’s: both go through one set of rules.</p>
      <ProfileEditor initial={profile} activityNames={activityNames} />
    </>
  );
}

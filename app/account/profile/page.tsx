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
      <p className="muted">
        What you save here is what other members see. If an assistant helps you, it can change it too.
      </p>
      <ProfileEditor
        initial={profile}
        activityNames={activityNames()}
        timezones={SELECTABLE_TIMEZONES}
        minimumAge={config().ages.minimumAge}
      />
    </>
  );
}

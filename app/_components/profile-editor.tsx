'use client';
// Profile view and edit for the web app. It reads and writes through the same JSON API
// agents use (GET/PATCH /api/v1/me.json with the session cookie), so validation, the
// plain-English fields and their warnings are exactly the API's. SWR keeps the view
// live: a change an agent makes shows up when the tab regains focus.
// Made for thumbs: activities are chips with suggestions from the catalog, free time is a
// week of buttons in step with its text, examples speak of the person's own city, and
// dates are in the browser's own language.
import type { OwnProfile } from '@/lib/contract/profiles';
import { SavedNotice } from './fields';
import { PhotoUpload } from './photo-upload';
import { ActivitiesField } from './profile-activities-field';
import { AboutFields } from './profile-about-fields';
import { AgeFields } from './profile-age-fields';
import { AvailabilityField } from './profile-availability-field';
import { profileFieldKit } from './profile-field-props';
import { LocationFields } from './profile-location-fields';
import { ProfileStatus } from './profile-status';
import { useProfileEditor } from './use-profile-editor';

export function ProfileEditor({
  initial,
  activityNames,
  timezones,
  minimumAge,
}: {
  initial: OwnProfile;
  /** MINIMUM_AGE, for the birthday's help. */
  minimumAge: number;
  activityNames: Record<string, string>;
  /** The zone names the API takes, for the time zone picker. */
  timezones: readonly string[];
}) {
  const {
    profile,
    mutate,
    values,
    errors,
    status,
    saving,
    draft,
    setDraft,
    renamed,
    setRenamed,
    lookup,
    names,
    saved,
    summary,
    edited,
    stale,
    city,
    birthdayText,
    changedText,
    set,
    save,
  } = useProfileEditor(initial, activityNames);
  const { fieldProps, fieldError } = profileFieldKit(errors);
  const section = { values, set, fieldProps, fieldError };

  return (
    <>
      {profile.onboarding.missing.length > 0 ? (
        <div className="notice notice-warn">
          <p>
            Still needed before you show in Discover: {profile.onboarding.missing.length} item
            {profile.onboarding.missing.length === 1 ? '' : 's'}. See the <a href="/account">checklist</a>.
          </p>
        </div>
      ) : null}

      <section className="card" aria-labelledby="photo-heading">
        <h2 id="photo-heading">Photo</h2>
        <PhotoUpload currentUrl={profile.photoURL} name={profile.displayName} onUploaded={() => void mutate()} />
      </section>

      <section className="card" aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        {changedText ? <p className="muted small">Last changed {changedText}</p> : null}
        <ProfileStatus status={status} summaryRef={summary.ref} errors={errors} stale={stale} edited={edited} />
        <form className="stack" onSubmit={save} noValidate>
          <AboutFields {...section} city={city} />
          <LocationFields {...section} city={city} profile={profile} timezones={timezones} />
          <AgeFields {...section} birthdayText={birthdayText} profile={profile} minimumAge={minimumAge} />
          <ActivitiesField
            {...section}
            errors={errors}
            draft={draft}
            setDraft={setDraft}
            renamed={renamed}
            setRenamed={setRenamed}
            lookup={lookup}
            names={names}
          />
          <AvailabilityField {...section} profile={profile} />
          {/* On a phone it stays in view above the tab bar, so Save is never a long scroll away. */}
          <div className="actions profile-save">
            <button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save profile'}
            </button>
            <SavedNotice text={saved} />
            <a href={`/u/${encodeURIComponent(profile.slug)}`}>See your public profile</a>
          </div>
        </form>
      </section>
    </>
  );
}

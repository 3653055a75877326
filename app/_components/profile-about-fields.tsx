// The profile's name and about text.

import { LIMITS } from './profile-form';
import type { ProfileSectionProps } from './profile-field-props';

export function AboutFields({
  values,
  set,
  fieldProps,
  fieldError,
  city,
}: ProfileSectionProps & { city: string | null }) {
  return (
    <>
      <div className="field">
        <label htmlFor="profile-displayName">Name</label>
        <input
          type="text"
          {...fieldProps('displayName')}
          value={values.displayName}
          maxLength={LIMITS.displayName}
          required
          autoComplete="nickname"
          onChange={(e) => set('displayName', e.target.value)}
        />
        <p className="help" id="profile-displayName-help">
          Shown on your profile. Up to {LIMITS.displayName} characters.
        </p>
        {fieldError('displayName')}
      </div>
      <div className="field">
        <label htmlFor="profile-aboutMe">About you</label>
        <textarea
          {...fieldProps('aboutMe')}
          value={values.aboutMe}
          maxLength={LIMITS.aboutMe}
          placeholder={`Like “New in ${city ?? 'town'}, up for a hike on Saturdays and a board game night after work.”`}
          onChange={(e) => set('aboutMe', e.target.value)}
        />
        <p className="help" id="profile-aboutMe-help">
          {values.aboutMe.length} of {LIMITS.aboutMe} characters.
        </p>
        {fieldError('aboutMe')}
      </div>
    </>
  );
}

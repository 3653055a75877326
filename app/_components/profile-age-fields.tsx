// Gender, birthday and how the age shows.

import type { OwnProfile } from '@/lib/contract/profiles';
import type { ProfileSectionProps } from './profile-field-props';

export function AgeFields({
  values,
  set,
  fieldProps,
  fieldError,
  birthdayText,
  profile,
  minimumAge,
}: ProfileSectionProps & { birthdayText: string | null; profile: OwnProfile; minimumAge: number }) {
  return (
    <>
      <div className="field">
        <label htmlFor="profile-gender">Gender</label>
        <select {...fieldProps('gender')} value={values.gender} onChange={(e) => set('gender', e.target.value)}>
          <option value="">Not set</option>
          <option value="female">Woman</option>
          <option value="male">Man</option>
          <option value="non_binary">Non-binary</option>
          <option value="prefer_not_to_say">Prefer not to say</option>
        </select>
        <p className="help" id="profile-gender-help">
          Needed for Discover; “Prefer not to say” counts.
        </p>
        {fieldError('gender')}
      </div>
      <div className="field">
        <label htmlFor="profile-birthday">Birthday</label>
        <input
          type="date"
          {...fieldProps('birthday')}
          value={values.birthday}
          autoComplete="bday"
          onChange={(e) => set('birthday', e.target.value)}
        />
        <p className="help" id="profile-birthday-help">
          {birthdayText ? `${birthdayText}. ` : ''}Others see your age, not your birthday. You must be {minimumAge} or
          older; under 18, you meet only people under 18.
        </p>
        {fieldError('birthday')}
      </div>
      <div className="field">
        <div className="checkbox">
          <input
            type="checkbox"
            {...fieldProps('showAgeByDecade')}
            checked={values.showAgeByDecade}
            onChange={(e) => set('showAgeByDecade', e.target.checked)}
          />
          <label htmlFor="profile-showAgeByDecade">Show only my age decade (like “30s”)</label>
        </div>
        <p className="help" id="profile-showAgeByDecade-help">
          {profile.age_bucket ? `You would show as: ${profile.age_bucket}.` : 'Takes effect once your birthday is set.'}
        </p>
      </div>
    </>
  );
}

// Where the person is, and the time zone their free times are in.

import type { OwnProfile } from '@/lib/contract/profiles';
import { LIMITS } from './profile-form';
import type { ProfileSectionProps } from './profile-field-props';

export function LocationFields({
  values,
  set,
  fieldProps,
  fieldError,
  city,
  profile,
  timezones,
}: ProfileSectionProps & {
  city: string | null;
  profile: OwnProfile;
  /** The zone names the API takes, for the time zone picker. */
  timezones: readonly string[];
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="profile-location">Where you are</label>
        <input
          type="text"
          {...fieldProps('location')}
          value={values.location}
          maxLength={LIMITS.location}
          autoComplete="address-level2"
          placeholder={`Like “${city ?? 'Portland, OR'}”`}
          onChange={(e) => set('location', e.target.value)}
        />
        <p className="help" id="profile-location-help">
          A town or city, like “{city ?? 'Portland, OR'}”. Others only see the city
          {profile.public_location ? ` (now: ${profile.public_location})` : ''}.
        </p>
        {fieldError('location')}
      </div>
      <div className="field">
        <label htmlFor="profile-timezone">Time zone</label>
        <select {...fieldProps('timezone')} value={values.timezone} onChange={(e) => set('timezone', e.target.value)}>
          <option value="">Automatic, from where you are</option>
          {(values.timezone && !timezones.includes(values.timezone) ? [values.timezone, ...timezones] : timezones).map(
            (zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll('_', ' ')}
              </option>
            ),
          )}
        </select>
        <p className="help" id="profile-timezone-help">
          Your free times are in this zone’s local time
          {profile.timezone ? ` (now: ${profile.timezone.replaceAll('_', ' ')})` : ''}. Automatic follows where you are.
        </p>
        {fieldError('timezone')}
      </div>
    </>
  );
}

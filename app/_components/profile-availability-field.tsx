// Free time: a week of buttons in step with its text.

import type { OwnProfile } from '@/lib/contract/profiles';
import { FreeTimeGrid } from './free-time-grid';
import { LIMITS } from './profile-form';
import type { ProfileSectionProps } from './profile-field-props';

export function AvailabilityField({
  values,
  set,
  fieldProps,
  fieldError,
  profile,
}: ProfileSectionProps & { profile: OwnProfile }) {
  return (
    <div className="field">
      <label htmlFor="profile-availability_text">When you’re free</label>
      <div className="free-time">
        <FreeTimeGrid text={values.availability_text} onChange={(text) => set('availability_text', text)} />
        <div className="free-time-text">
          <textarea
            {...fieldProps('availability_text')}
            value={values.availability_text}
            maxLength={LIMITS.availability_text}
            placeholder="Like “weekends and Wednesday evenings”"
            onChange={(e) => set('availability_text', e.target.value)}
          />
          <p className="help" id="profile-availability_text-help">
            Tap the week, or write it your way: “weekends and Wednesday evenings”. When you tap, these words change to
            match the week. Now: {profile.schedule_summary}.
          </p>
        </div>
      </div>
      {fieldError('availability_text')}
    </div>
  );
}

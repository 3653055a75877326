// Activities as chips, with suggestions from the catalog.

import type { Dispatch, SetStateAction } from 'react';
import { ActivityChips, type ActivityLookup } from './activity-chips';
import type { ProfileSectionProps } from './profile-field-props';

export function ActivitiesField({
  values,
  set,
  fieldProps,
  fieldError,
  errors,
  draft,
  setDraft,
  renamed,
  setRenamed,
  lookup,
  names,
}: ProfileSectionProps & {
  errors: Record<string, string>;
  draft: string;
  setDraft: Dispatch<SetStateAction<string>>;
  renamed: string[];
  setRenamed: Dispatch<SetStateAction<string[]>>;
  lookup: ActivityLookup;
  names: string[];
}) {
  return (
    <div className="field">
      <label htmlFor="profile-activities">Activities</label>
      <ActivityChips
        id="profile-activities"
        chips={values.activities}
        draft={draft}
        renamed={renamed}
        lookup={lookup}
        names={names}
        placeholder="Type an activity"
        invalid={Boolean(errors.activities)}
        describedBy={fieldProps('activities')['aria-describedby']}
        onChange={(chips, nextDraft, nextRenamed) => {
          set('activities', chips);
          setDraft(nextDraft);
          setRenamed(nextRenamed);
        }}
      />
      <p className="help" id="profile-activities-help">
        Type and pick from the suggestions, or say it in your own words; Enter or Add puts it in. Up to 20.
      </p>
      {fieldError('activities')}
    </div>
  );
}

// The edit step: every detail as a form field, with the API's field errors beside them.
import type { Dispatch, FormEvent, SetStateAction } from 'react';
import { GENDER_OPTIONS as GENDERS, type SignupDraft, type SignupParam } from '@/lib/signup-link';
import { Field } from './field';
import { GENDER_LABELS } from './labels';
import { SignupPhoto } from './signup-photo';
import { AgreeToTerms } from './agree-to-terms';

export function DetailsForm({
  draft,
  setDraft,
  fieldErrors,
  ready,
  submitting,
  submit,
}: {
  draft: SignupDraft;
  setDraft: Dispatch<SetStateAction<SignupDraft>>;
  fieldErrors: Partial<Record<SignupParam, string>>;
  ready: boolean;
  submitting: boolean;
  submit: (event?: FormEvent) => Promise<void>;
}) {
  return (
    <form className="card stack" aria-labelledby="edit-heading" onSubmit={(e) => void submit(e)} noValidate>
      <div>
        <h2 id="edit-heading">Your details</h2>
        <p className="muted">Email and name are needed. The rest helps people find you and can be added later.</p>
      </div>
      <Field param="email" label="Email" error={fieldErrors.email} required>
        {(props) => (
          <input
            {...props}
            type="email"
            autoComplete="email"
            value={draft.email}
            onChange={(e) => setDraft({ ...draft, email: e.target.value })}
          />
        )}
      </Field>
      <Field param="name" label="Name" hint="The name other people see." error={fieldErrors.name} required>
        {(props) => (
          <input
            {...props}
            type="text"
            autoComplete="name"
            maxLength={60}
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
        )}
      </Field>
      <Field
        param="location"
        label="Location"
        hint='Your city, for example "Portland, OR".'
        error={fieldErrors.location}
      >
        {(props) => (
          <input
            {...props}
            type="text"
            autoComplete="address-level2"
            value={draft.location}
            onChange={(e) => setDraft({ ...draft, location: e.target.value })}
          />
        )}
      </Field>
      <Field param="gender" label="Gender" error={fieldErrors.gender}>
        {(props) => (
          <select {...props} value={draft.gender} onChange={(e) => setDraft({ ...draft, gender: e.target.value })}>
            <option value="">Not now</option>
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {GENDER_LABELS[g]}
              </option>
            ))}
            {draft.gender && !(GENDERS as readonly string[]).includes(draft.gender) ? (
              <option value={draft.gender}>{draft.gender}</option>
            ) : null}
          </select>
        )}
      </Field>
      <Field param="birthday" label="Birthday" hint="You must be at least 13." error={fieldErrors.birthday}>
        {(props) => (
          <input
            {...props}
            type="date"
            autoComplete="bday"
            value={draft.birthday}
            onChange={(e) => setDraft({ ...draft, birthday: e.target.value })}
          />
        )}
      </Field>
      <Field
        param="about"
        label="About you"
        hint="A few words: what you like doing, what you are looking for."
        error={fieldErrors.about}
      >
        {(props) => (
          <textarea
            {...props}
            maxLength={600}
            value={draft.about}
            onChange={(e) => setDraft({ ...draft, about: e.target.value })}
          />
        )}
      </Field>
      <Field
        param="activities"
        label="Activities"
        hint="Separate them with commas, for example: hiking, board games, coffee."
        error={fieldErrors.activities}
      >
        {(props) => (
          <input
            {...props}
            type="text"
            value={draft.activities}
            onChange={(e) => setDraft({ ...draft, activities: e.target.value })}
          />
        )}
      </Field>
      <Field
        param="availability"
        label="When you are free"
        hint='In your own words, for example "weekends and Wednesday evenings".'
        error={fieldErrors.availability}
      >
        {(props) => (
          <input
            {...props}
            type="text"
            maxLength={500}
            value={draft.availability}
            onChange={(e) => setDraft({ ...draft, availability: e.target.value })}
          />
        )}
      </Field>
      <SignupPhoto
        photo={draft.photo}
        error={fieldErrors.photo}
        onChange={(photo) => setDraft((current) => ({ ...current, photo }))}
      />
      <p className="small muted">
        <AgreeToTerms />
      </p>
      <button type="submit" className="button-big" disabled={!ready || submitting} aria-busy={submitting}>
        {submitting ? 'Creating your account…' : 'Create my account'}
      </button>
    </form>
  );
}

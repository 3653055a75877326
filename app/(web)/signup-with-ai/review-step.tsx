// The review step: what the assistant prepared, as it will be sent, and the one button that sends it.
import type { FormEvent } from 'react';
import { photoPreview } from '@/lib/web/photo-preview';
import { SIGNUP_LINK_PARAMS, splitActivities, type SignupDraft } from '@/lib/signup-link';
import { genderLabel, LABELS } from './labels';
import type { View } from './use-signup';
import { AgreeToTerms } from './agree-to-terms';

/** The same check the API makes, closely enough to warn on the review step before anything is sent. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

export function ReviewStep({
  draft,
  ready,
  submitting,
  submit,
  setView,
}: {
  draft: SignupDraft;
  ready: boolean;
  submitting: boolean;
  submit: (event?: FormEvent) => Promise<void>;
  setView: (view: View) => void;
}) {
  const emailWrong = draft.email.trim() !== '' && !looksLikeEmail(draft.email);
  const summaryRows = SIGNUP_LINK_PARAMS.filter(({ param }) => param !== 'agent' && draft[param] !== '');
  return (
    <section className="card stack" aria-labelledby="review-heading">
      <div>
        <h2 id="review-heading">Check what will be sent</h2>
        <p className="muted">
          {draft.agent ? (
            <>
              Your assistant <strong>{draft.agent}</strong> prepared these details.
            </>
          ) : (
            'Your assistant prepared these details.'
          )}{' '}
          Nothing is sent until you press the button.
        </p>
      </div>
      <dl className="kv">
        {summaryRows.map(({ param }) => (
          <div key={param}>
            <dt>{LABELS[param]}</dt>
            <dd
              data-field={param}
              aria-describedby={param === 'email' && emailWrong ? 'review-email-error' : undefined}
            >
              {param === 'activities'
                ? splitActivities(draft.activities).join(', ')
                : param === 'gender'
                  ? genderLabel(draft.gender)
                  : param === 'photo'
                    ? photoShown(draft.photo)
                    : draft[param]}
            </dd>
          </div>
        ))}
      </dl>
      {emailWrong ? (
        <p className="error" id="review-email-error" data-testid="review-email-error">
          This doesn’t look like an email address. Check it for typos: the sign-in link goes there. Press “Change
          details” to fix it.
        </p>
      ) : null}
      <p className="small muted">
        We also email you a sign-in link. Other members can see your name, photo, city, activities and when you are
        free. <AgreeToTerms />
      </p>
      <button
        type="button"
        className="button-big"
        onClick={() => void submit()}
        disabled={!ready || submitting}
        aria-busy={submitting}
      >
        {submitting ? 'Creating your account…' : 'Create my account'}
      </button>
      <div className="actions">
        <button
          type="button"
          className="button-secondary"
          onClick={() => setView({ name: 'edit' })}
          disabled={submitting}
        >
          Change details
        </button>
      </div>
    </section>
  );
}

function photoShown(photo: string) {
  const preview = photoPreview(photo);
  if (preview.kind === 'text') return preview.text;
  return (
    <img src={preview.src} alt="You, as your assistant prepared it" width={96} height={96} className="photo-thumb" />
  );
}

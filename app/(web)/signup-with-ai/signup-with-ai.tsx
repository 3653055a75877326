'use client';

// The browser fallback: shows the person what their agent prepared, sends the one
// registration POST when they confirm, and shows the result (or what to fix) inline.
// Everything the link carries is rendered as text by React, never as HTML.
import { useState, type ReactNode } from 'react';
import type { SignupDraft, UnusedParam } from '@/lib/signup-link';
import { AlreadyCreated } from './already-created';
import { DetailsForm } from './details-form';
import { ProblemNotice } from './problem-notice';
import { Result } from './result';
import { ReviewStep } from './review-step';
import { UnusedParamsNotice } from './unused-params-notice';
import { useSignup, type View } from './use-signup';

/**
 * `continueTo`: a path on this site the new account's sign-in link goes on to (an assistant's
 * consent screen, or with `connectName` the profile of the person they came to meet).
 */
export function SignupWithAi({
  title,
  intro,
  initialDraft,
  unusedParams = [],
  ownSignup = false,
  continueTo,
  connectName,
  activityNames = {},
}: {
  /** The page's heading until the account exists (then it welcomes the person). */
  title: string;
  intro?: ReactNode;
  initialDraft: SignupDraft;
  /** Parameters of the assistant's link this page does not use, shown rather than dropped silently. */
  unusedParams?: readonly UnusedParam[];
  /** The person's own signup (/signup): no assistant key is created, only the browser's session. */
  ownSignup?: boolean;
  continueTo?: string;
  /** "Join to connect": the first name of the person whose profile continueTo is. */
  connectName?: string;
  /** Activity id → name, to show suggestions as names ("did you mean Craft beer?"). */
  activityNames?: Record<string, string>;
}) {
  const [view, setView] = useState<View | null>(null);
  return (
    <>
      <h1>{view?.name === 'done' ? 'Welcome to Buddy Match' : title}</h1>
      {view?.name === 'done' ? null : intro}
      <SignupFlow
        initialDraft={initialDraft}
        unusedParams={unusedParams}
        ownSignup={ownSignup}
        continueTo={continueTo}
        connectName={connectName}
        activityNames={activityNames}
        onView={setView}
      />
    </>
  );
}

function SignupFlow({
  initialDraft,
  unusedParams,
  ownSignup,
  continueTo,
  connectName,
  activityNames,
  onView,
}: {
  initialDraft: SignupDraft;
  unusedParams: readonly UnusedParam[];
  ownSignup: boolean;
  continueTo?: string;
  connectName?: string;
  activityNames: Record<string, string>;
  onView: (view: View) => void;
}) {
  const { draft, setDraft, view, setView, problem, submitting, ready, focusRef, submit } = useSignup({
    initialDraft,
    ownSignup,
    continueTo,
    onView,
  });

  if (view.name === 'done')
    return (
      <Result
        result={view.result}
        headingRef={focusRef}
        continueTo={continueTo}
        connectName={connectName}
        activityNames={activityNames}
      />
    );

  if (view.name === 'already') {
    return (
      <AlreadyCreated email={initialDraft.email} at={view.at} draft={draft} setDraft={setDraft} setView={setView} />
    );
  }

  const fieldErrors = problem?.kind === 'fields' ? problem.fields : {};

  return (
    <div className="stack">
      {unusedParams.length ? <UnusedParamsNotice params={unusedParams} /> : null}
      {problem ? <ProblemNotice problem={problem} focusRef={focusRef} onRetry={() => void submit()} /> : null}

      {view.name === 'review' ? (
        <ReviewStep draft={draft} ready={ready} submitting={submitting} submit={submit} setView={setView} />
      ) : (
        <DetailsForm
          draft={draft}
          setDraft={setDraft}
          fieldErrors={fieldErrors}
          ready={ready}
          submitting={submitting}
          submit={submit}
        />
      )}
    </div>
  );
}

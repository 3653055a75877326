// Why the account was not created, and what to do about it.

import type { ReactNode, RefObject } from 'react';
import type { SignupParam } from '@/lib/signup-link';
import { LABELS } from './labels';
import type { Problem } from './signup-api';

function minutes(seconds: number): string {
  const m = Math.max(1, Math.ceil(seconds / 60));
  return m === 1 ? 'a minute' : `${m} minutes`;
}

export function ProblemNotice({
  problem,
  focusRef,
  onRetry,
}: {
  problem: Problem;
  focusRef: RefObject<HTMLElement | null>;
  onRetry: () => void;
}) {
  const ref = (el: HTMLElement | null) => {
    focusRef.current = el;
  };
  if (problem.kind === 'fields') {
    const entries = Object.entries(problem.fields) as Array<[SignupParam, string]>;
    return (
      <section className="notice notice-error" role="alert" aria-labelledby="problem-heading" tabIndex={-1} ref={ref}>
        <h2 id="problem-heading">Please check {entries.length + problem.other.length === 1 ? 'this' : 'these'}</h2>
        <ul>
          {entries.map(([param, message]) => (
            <li key={param}>
              <a href={`#field-${param}`}>
                {LABELS[param]}: {message}
              </a>
            </li>
          ))}
          {problem.other.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      </section>
    );
  }
  const [heading, text, action]: [string, string, ReactNode] =
    problem.kind === 'taken'
      ? [
          problem.link === 'sent'
            ? 'This email already has an account — we’ve sent a sign-in link to it'
            : 'This email already has an account',
          problem.link === 'sent'
            ? 'No new account was created. Open the link in that email to sign in (it works once, for about an hour; check your spam folder too), or use a different email address below.'
            : problem.link === 'limited'
              ? 'No new account was created. Several sign-in links were sent to this address recently, so no new one was sent now: use the newest one in your email, or use a different email address below.'
              : 'No new account was created. Sign in from the app or with a link by email, or use a different email address below.',
          problem.link === 'sent' ? null : (
            <a key="signin" className="button button-secondary" href="/signin">
              Sign in
            </a>
          ),
        ]
      : problem.kind === 'rate_limited'
        ? [
            'Too many sign-ups right now',
            `Too many accounts were created from this network in the last hour. Please try again ${problem.retryAfterSeconds ? `in about ${minutes(problem.retryAfterSeconds)}` : 'later'}.`,
            null,
          ]
        : problem.kind === 'network'
          ? [
              'We could not reach Buddy Match',
              'Your account was not created. Check your internet connection and try again.',
              <button key="retry" type="button" onClick={onRetry}>
                Try again
              </button>,
            ]
          : [
              'Something went wrong on our side',
              `Your account was not created (${problem.message}). Please try again in a minute.`,
              <button key="retry" type="button" onClick={onRetry}>
                Try again
              </button>,
            ];
  return (
    <section
      className="notice notice-error stack"
      role="alert"
      aria-labelledby="problem-heading"
      tabIndex={-1}
      ref={ref}
    >
      <div>
        <h2 id="problem-heading">{heading}</h2>
        <p>{text}</p>
      </div>
      {action ? <div className="actions">{action}</div> : null}
    </section>
  );
}

// The done view: the account exists; sign this browser in, show the way on, the password once, and what to check.

import { useEffect, useState, type RefObject } from 'react';
import { ShowMe } from '@/app/_components/show-me';
import { CopyField } from './copy-field';
import { MISSING_LABELS, orList } from './result-labels';
import { signInBrowser, type RegisterResult } from './signup-api';

export function Result({
  result,
  headingRef,
  continueTo,
  connectName,
  activityNames,
}: {
  result: RegisterResult;
  headingRef: RefObject<HTMLElement | null>;
  continueTo?: string;
  connectName?: string;
  activityNames: Record<string, string>;
}) {
  const { auth, warnings, onboarding, user } = result;
  const next = connectName
    ? { heading: `Say hi to ${connectName}`, button: `Ask ${connectName} to be buddies`, afterwards: '' }
    : {
        heading: 'Connect your assistant',
        button: 'Continue to your assistant',
        afterwards: 'Then approve the assistant on the next page. ',
      };
  // The new account is signed in on this browser at once; the sign-in link stays for the phone.
  const [signedIn, setSignedIn] = useState<'pending' | 'yes' | 'no'>('pending');
  useEffect(() => {
    let live = true;
    void signInBrowser(result, continueTo ?? '/account').then((ok) => {
      if (live) setSignedIn(ok ? 'yes' : 'no');
    });
    return () => {
      live = false;
    };
  }, [result, continueTo]);
  const unmatched = warnings.activities_unmatched ?? [];
  const expiresMinutes = auth.mobile_signin_expires_in_seconds
    ? Math.round(auth.mobile_signin_expires_in_seconds / 60)
    : null;
  return (
    <div className="stack">
      <section className="notice notice-ok" aria-labelledby="done-heading">
        <h2
          id="done-heading"
          tabIndex={-1}
          ref={(el) => {
            headingRef.current = el;
          }}
        >
          Your account is ready
        </h2>
        <p>
          Welcome! Your account for <strong>{user.email}</strong> was created.
          {auth.emailed_magic_link ? ' We also emailed you a sign-in link.' : ''}
        </p>
        <p role="status" data-testid="browser-signin">
          {signedIn === 'pending'
            ? 'Signing you in on this browser…'
            : signedIn === 'yes'
              ? 'You’re signed in on this browser.'
              : ''}
        </p>
        {signedIn === 'yes' && !continueTo ? (
          <p>
            <a href="/account/profile">Open your profile</a>
          </p>
        ) : null}
      </section>

      {onboarding.awaiting_person_consent && signedIn === 'yes' ? <ShowMe complete={onboarding.complete} /> : null}

      {continueTo && signedIn === 'yes' ? (
        <section className="card stack" aria-labelledby="continue-heading">
          <h2 id="continue-heading">{next.heading}</h2>
          <a className="button button-big" href={continueTo}>
            {next.button}
          </a>
          <p className="small muted">{next.afterwards}Save your password below first.</p>
        </section>
      ) : null}

      {auth.mobile_signin_url && continueTo && signedIn === 'no' ? (
        <section className="card stack" aria-labelledby="continue-heading">
          <h2 id="continue-heading">{next.heading}</h2>
          <a
            className="button button-big"
            href={`${auth.mobile_signin_url}&${new URLSearchParams({ callbackUrl: continueTo })}`}
          >
            Sign in and continue
          </a>
          <p className="small muted">{next.afterwards}Save your password below first.</p>
        </section>
      ) : null}

      {auth.mobile_signin_url && !continueTo ? (
        <section className="card stack" aria-labelledby="signin-heading">
          <h2 id="signin-heading">Start using Buddy Match</h2>
          {/* Signed in here, the app is this site; otherwise the sign-in link signs this browser in. */}
          <a className="button button-big" href={signedIn === 'yes' ? '/account' : auth.mobile_signin_url}>
            Open Buddy Match
          </a>
          <p className="small muted">
            On your phone too? Copy the sign-in link and open it there. It works once
            {expiresMinutes ? ` and expires in about ${expiresMinutes} minutes` : ''}.
          </p>
          <CopyField id="signin-url" label="Sign-in link" value={auth.mobile_signin_url} />
        </section>
      ) : null}

      {auth.generated_password ? (
        <section className="card stack" aria-labelledby="password-heading">
          <h2 id="password-heading">Your password</h2>
          <div className="notice notice-warn">
            <p>
              <strong>Save it now — it is shown only this once.</strong> Put it in your password manager or write it
              down somewhere safe.
            </p>
          </div>
          <CopyField id="generated-password" label="Password" value={auth.generated_password} />
        </section>
      ) : null}

      {warnings.schedule_summary ||
      unmatched.length ||
      warnings.location_unresolved ||
      warnings.availability_unparsed?.length ||
      warnings.normalized?.length ? (
        <section className="card stack" aria-labelledby="check-heading">
          <h2 id="check-heading">Please check</h2>
          {warnings.schedule_summary ? (
            <div>
              <h3>When you are free</h3>
              <p data-testid="schedule-summary">{warnings.schedule_summary}</p>
              <p className="small muted">Not right? Tell your assistant, or change it in the app.</p>
            </div>
          ) : null}
          {warnings.availability_unparsed?.length ? (
            <div>
              <h3>Not understood</h3>
              <p>We could not read: {warnings.availability_unparsed.join(', ')}.</p>
            </div>
          ) : null}
          {unmatched.length ? (
            <div>
              <h3>Activities we did not recognise</h3>
              <ul data-testid="activities-unmatched">
                {unmatched.map((name) => {
                  // Own keys only: the name is the person's word ("constructor" must not find Object).
                  const offered = warnings.activities_suggestions;
                  const suggestions = offered && Object.hasOwn(offered, name) ? offered[name]! : [];
                  return (
                    <li key={name}>
                      {name}
                      {suggestions.length ? (
                        <span className="muted">
                          {' '}
                          — did you mean {orList(suggestions.map((id) => activityNames[id] ?? id))}?
                        </span>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </div>
          ) : null}
          {warnings.normalized?.length ? (
            <div>
              <h3>How we read it</h3>
              <ul data-testid="normalized">
                {warnings.normalized.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {warnings.location_unresolved ? (
            <div>
              <h3>Location</h3>
              <p>
                We could not place your location on the map yet, so nobody can see how far you are. A nearby city name
                usually works.
              </p>
            </div>
          ) : null}
        </section>
      ) : null}

      <section className="card" aria-labelledby="missing-heading">
        <h2 id="missing-heading">{onboarding.complete ? 'Your profile is complete' : 'Still missing'}</h2>
        {onboarding.complete ? (
          <p>Other members can find you now.</p>
        ) : (
          <>
            <p>Before other members can find you, add:</p>
            <ul data-testid="onboarding-missing">
              {onboarding.missing.map((field) => (
                <li key={field}>{MISSING_LABELS[field] ?? field}</li>
              ))}
            </ul>
            <p className="small muted">
              Add them in the app, or let your assistant add them: it holds no key to your account yet, so ask it to
              connect with device sign-in, and type the code it shows you at <a href="/oauth/device">/oauth/device</a>.
            </p>
          </>
        )}
      </section>
    </div>
  );
}

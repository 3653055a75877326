'use client';

// The browser fallback: shows the person what their agent prepared, sends the one
// registration POST when they confirm, and shows the result (or what to fix) inline.
// Everything the link carries is rendered as text by React, never as HTML.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { paths } from '@/lib/contract/paths';
import type { ProfileWarnings } from '@/lib/profiles/fields';
import { photoPreview } from '@/lib/web/photo-preview';
import { photoFileProblem, readAsDataUrl } from '@/app/_components/photo-upload';
import {
  GENDER_OPTIONS as GENDERS,
  SIGNUP_LINK_PARAMS,
  normalizeGender,
  paramForField,
  registrationBody,
  splitActivities,
  type SignupDraft,
  type SignupParam,
  type UnusedParam,
} from '@/lib/signup-link';

interface RegisterResult {
  user: { email: string; slug: string; profile_url: string };
  auth: {
    generated_password: string | null;
    mobile_signin_url: string | null;
    mobile_signin_expires_in_seconds: number | null;
    emailed_magic_link: boolean;
  };
  onboarding: { complete: boolean; missing: string[] };
  // The contract's own type (a type-only import: nothing of the server reaches the page).
  warnings: ProfileWarnings;
}

interface ApiErrorBody {
  error?: { code?: string; message?: string; hint?: string; fields?: Record<string, string> };
}

type Problem =
  | { kind: 'fields'; fields: Partial<Record<SignupParam, string>>; other: string[] }
  | { kind: 'taken'; link: SigninLinkRequest }
  | { kind: 'rate_limited'; retryAfterSeconds: number | null }
  | { kind: 'network' }
  | { kind: 'server'; message: string };

type View =
  | { name: 'review' }
  | { name: 'edit' }
  | { name: 'done'; result: RegisterResult }
  | { name: 'already'; at: string };

const LABELS: Record<SignupParam, string> = {
  email: 'Email',
  name: 'Name',
  location: 'Location',
  gender: 'Gender',
  birthday: 'Birthday',
  about: 'About you',
  activities: 'Activities',
  availability: 'When you are free',
  photo: 'Photo',
  agent: 'Prepared by',
};

const GENDER_LABELS: Record<(typeof GENDERS)[number], string> = {
  male: 'Male',
  female: 'Female',
  non_binary: 'Non-binary',
  prefer_not_to_say: 'Prefer not to say',
};

const MISSING_LABELS: Record<string, string> = {
  displayName: 'your name',
  aboutMe: 'a few words about you',
  gender: 'your gender',
  birthday: 'your birthday',
  location: 'your location',
  coords: 'a location we can find on the map',
  activities: 'at least one activity',
  schedule: 'when you are free',
  photo: 'a photo',
};

const DONE_KEY = (email: string) => `buddy-match:signup-done:${email.trim().toLowerCase()}`;

/** The API's field messages are sentences a person can act on; they only get a full stop. */
function plainFieldError(param: SignupParam, message: string): string {
  if (param === 'gender') return 'Choose one of the options.';
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The same check the API makes, closely enough to warn on the review step before anything is sent. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** Signs this browser in to the new account (Auth.js password sign-in with the generated password, else the sign-in link); true when it worked. */
async function signInBrowser(result: RegisterResult, callbackUrl: string): Promise<boolean> {
  try {
    const csrf = (await (await fetch('/auth/csrf', { headers: { accept: 'application/json' } })).json()) as {
      csrfToken?: string;
    };
    if (!csrf.csrfToken) return false;
    // Auth.js answers {url} instead of a redirect with this header; the session cookie comes with it.
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' };
    let response: Response;
    if (result.auth.generated_password) {
      const body = new URLSearchParams({
        csrfToken: csrf.csrfToken,
        email: result.user.email,
        password: result.auth.generated_password,
        callbackUrl,
      });
      response = await fetch('/auth/callback/password', { method: 'POST', headers, body });
    } else {
      const token = result.auth.mobile_signin_url
        ? new URL(result.auth.mobile_signin_url).searchParams.get('token')
        : null;
      if (!token) return false;
      response = await fetch(`/auth/callback/email?${new URLSearchParams({ token, callbackUrl })}`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ csrfToken: csrf.csrfToken }),
      });
    }
    if (!response.ok) return false;
    const { url } = (await response.json()) as { url?: string };
    return typeof url === 'string' && !/[?&]error=/.test(url);
  } catch {
    return false;
  }
}

type SigninLinkRequest = 'sent' | 'limited' | 'failed';

/**
 * "Email me a sign-in link", exactly as the sign-in page asks for it (Auth.js's CSRF-checked
 * email sign-in: the same per-address and per-network limits, the same answer for every
 * address). For a signup whose first submit created the account but whose answer was lost.
 */
async function emailSigninLink(email: string, callbackUrl: string): Promise<SigninLinkRequest> {
  try {
    const csrf = (await (await fetch('/auth/csrf', { headers: { accept: 'application/json' } })).json()) as {
      csrfToken?: string;
    };
    if (!csrf.csrfToken) return 'failed';
    // Followed to where the form would land: the check-email page, or /signin?error=… when refused.
    const response = await fetch('/auth/signin/email', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, email: email.trim(), callbackUrl }),
    });
    const landed = new URL(response.url);
    if (landed.pathname === '/signin/check-email') return 'sent';
    return landed.searchParams.get('error') === 'AccessDenied' ? 'limited' : 'failed';
  } catch {
    return 'failed';
  }
}

function problemFromResponse(status: number, body: ApiErrorBody, retryAfter: string | null): Problem {
  const code = body.error?.code;
  if (code === 'email_taken' || status === 409) return { kind: 'taken', link: 'failed' };
  if (code === 'rate_limited' || status === 429) {
    const seconds = Number(retryAfter);
    return { kind: 'rate_limited', retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : null };
  }
  if (status === 400 && body.error?.fields) {
    const fields: Partial<Record<SignupParam, string>> = {};
    const other: string[] = [];
    for (const [field, message] of Object.entries(body.error.fields)) {
      const param = paramForField(field);
      if (param) fields[param] ??= plainFieldError(param, message);
      else if (message !== 'unknown field') other.push(`${field}: ${message}`);
    }
    return { kind: 'fields', fields, other };
  }
  return { kind: 'server', message: body.error?.message ?? `The service answered ${status}.` };
}

function minutes(seconds: number): string {
  const m = Math.max(1, Math.ceil(seconds / 60));
  return m === 1 ? 'a minute' : `${m} minutes`;
}

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
  const [draft, setDraft] = useState<SignupDraft>({
    ...initialDraft,
    gender: initialDraft.gender ? normalizeGender(initialDraft.gender) : '',
  });
  const hasRequired = initialDraft.email !== '' && initialDraft.name !== '';
  const [view, setView] = useState<View>(hasRequired ? { name: 'review' } : { name: 'edit' });
  useEffect(() => onView(view), [view, onView]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [ready, setReady] = useState(false);
  const inFlight = useRef(false);
  const focusRef = useRef<HTMLElement | null>(null);
  const [focusKey, setFocusKey] = useState(0);

  // A finished signup is remembered in this browser (without any secret), so reloading
  // the link says the account exists instead of offering to create it again.
  useEffect(() => {
    try {
      const done = initialDraft.email ? window.localStorage.getItem(DONE_KEY(initialDraft.email)) : null;
      if (done) setView({ name: 'already', at: (JSON.parse(done) as { at: string }).at });
    } catch {
      // storage unavailable (private mode): the API's email_taken answer covers it
    }
    setReady(true);
  }, [initialDraft.email]);

  useEffect(() => {
    if (focusKey > 0) focusRef.current?.focus();
  }, [focusKey]);
  const moveFocus = () => setFocusKey((k) => k + 1);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    setProblem(null);
    try {
      let response: Response;
      try {
        response = await fetch(ownSignup ? paths.webSignup() : paths.register(), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(registrationBody(draft)),
        });
      } catch {
        setProblem({ kind: 'network' });
        moveFocus();
        return;
      }
      const body = (await response.json().catch(() => ({}))) as RegisterResult & ApiErrorBody;
      if (response.status === 201) {
        try {
          window.localStorage.setItem(DONE_KEY(draft.email), JSON.stringify({ at: new Date().toISOString() }));
        } catch {
          // storage unavailable: nothing to remember
        }
        setView({ name: 'done', result: body });
        moveFocus();
        return;
      }
      let next = problemFromResponse(response.status, body, response.headers.get('retry-after'));
      // The account exists (often from this very form, its answer lost on the way): the way
      // in is an emailed link, so ask for one at once rather than leave the person without a password.
      if (next.kind === 'taken') next = { ...next, link: await emailSigninLink(draft.email, continueTo ?? '/account') };
      setProblem(next);
      if (next.kind === 'fields' || next.kind === 'taken') setView({ name: 'edit' });
      moveFocus();
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  }

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
      <section className="card stack" aria-labelledby="already-heading">
        <div className="notice notice-ok">
          <h2 id="already-heading">Your account already exists</h2>
          <p>
            An account for <strong>{initialDraft.email}</strong> was created from this browser on{' '}
            {new Date(view.at).toLocaleString()}. Use the sign-in link from that page or from your email to open the
            app. It is not created twice.
          </p>
        </div>
        <div className="actions">
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              setDraft({ ...draft, email: '' });
              setView({ name: 'edit' });
            }}
          >
            Sign up with a different email
          </button>
        </div>
      </section>
    );
  }

  const emailWrong = draft.email.trim() !== '' && !looksLikeEmail(draft.email);
  const summaryRows = SIGNUP_LINK_PARAMS.filter(({ param }) => param !== 'agent' && draft[param] !== '');
  const fieldErrors = problem?.kind === 'fields' ? problem.fields : {};

  return (
    <div className="stack">
      {unusedParams.length ? <UnusedParamsNotice params={unusedParams} /> : null}
      {problem ? <ProblemNotice problem={problem} focusRef={focusRef} onRetry={() => void submit()} /> : null}

      {view.name === 'review' ? (
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
            We also email you a sign-in link. By creating an account you agree that other members can see your name,
            photo, city, activities and when you are free.
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
      ) : (
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
          <button type="submit" className="button-big" disabled={!ready || submitting} aria-busy={submitting}>
            {submitting ? 'Creating your account…' : 'Create my account'}
          </button>
        </form>
      )}
    </div>
  );
}

/** ["Craft beer", "Wine tasting", "Coffee"] → "Craft beer, Wine tasting or Coffee". */
function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function genderLabel(value: string): string {
  return (GENDER_LABELS as Record<string, string>)[value] ?? value;
}

interface FieldProps {
  param: SignupParam;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  children: (props: {
    id: string;
    name: string;
    required?: boolean;
    'aria-invalid'?: boolean;
    'aria-describedby'?: string;
  }) => ReactNode;
}

function Field({ param, label, hint, error, required, children }: FieldProps) {
  const id = `field-${param}`;
  const hintId = useId();
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span className="muted"> (required)</span> : null}
      </label>
      {children({
        id,
        name: param,
        required,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {hint ? (
        <p className="help" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function UnusedParamsNotice({ params }: { params: readonly UnusedParam[] }) {
  return (
    <section className="notice notice-warn" aria-labelledby="unused-heading" data-testid="unused-params">
      <h2 id="unused-heading">Not used from your assistant’s link</h2>
      <p>This page doesn’t know these details, so they will not be sent. Add them later if they matter:</p>
      <ul>
        {params.map(({ name, value }) => (
          <li key={`${name}=${value}`}>
            <strong>{name}</strong>
            {value ? `: ${value}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProblemNotice({
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

function CopyField({ label, value, id }: { label: string; value: string; id: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const input = document.getElementById(id) as HTMLInputElement | null;
      input?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button-secondary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <span className="small muted" role="status">
        {copied ? 'Copied.' : ''}
      </span>
    </div>
  );
}

function Result({
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
                  const suggestions = warnings.activities_suggestions?.[name] ?? [];
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
            <p className="small muted">Your assistant can add these for you, or you can add them in the app.</p>
          </>
        )}
      </section>
    </div>
  );
}

function photoShown(photo: string) {
  const preview = photoPreview(photo);
  if (preview.kind === 'text') return preview.text;
  return (
    <img src={preview.src} alt="You, as your assistant prepared it" width={96} height={96} className="photo-thumb" />
  );
}

/**
 * The photo: taken with the camera or chosen from the files (a phone offers both for
 * accept="image/*"), shown before anything is sent, and sent inline with the signup, so it
 * goes through the same photo pipeline as an upload. A public link still works, for a photo
 * already online (or one an assistant's link carries).
 */
function SignupPhoto({ photo, error, onChange }: { photo: string; error?: string; onChange: (photo: string) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const isFile = photo.startsWith('data:');
  const preview = isFile ? photoPreview(photo) : null;
  const shown = problem ?? error;

  async function choose(file: File | undefined) {
    setProblem(null);
    if (!file) return;
    const refused = photoFileProblem(file);
    if (refused) {
      setProblem(refused);
      if (input.current) input.current.value = '';
      return;
    }
    try {
      onChange(await readAsDataUrl(file));
    } catch {
      setProblem('Could not read that file. Choose another photo.');
    }
  }

  return (
    <fieldset
      id={isFile ? 'field-photo' : undefined}
      className="field signup-photo"
      aria-describedby={shown ? 'field-photo-error' : undefined}
    >
      <legend>Photo</legend>
      <div className="photo-upload">
        {preview?.kind === 'image' ? (
          <img className="photo-preview" src={preview.src} alt="You, as others will see you" width={96} height={96} />
        ) : (
          <p className="muted">No photo yet.</p>
        )}
        <div className="stack">
          <input
            ref={input}
            id="field-photo-file"
            className="visually-hidden photo-input"
            type="file"
            accept="image/*"
            aria-describedby="field-photo-help"
            onChange={(e) => void choose(e.target.files?.[0])}
          />
          <label htmlFor="field-photo-file" className="button button-secondary photo-button">
            {isFile ? 'Choose another photo' : 'Take or choose a photo'}
          </label>
          {isFile ? (
            <button
              type="button"
              className="button-secondary"
              onClick={() => {
                onChange('');
                if (input.current) input.current.value = '';
              }}
            >
              Remove photo
            </button>
          ) : null}
        </div>
      </div>
      <p className="help" id="field-photo-help">
        Optional, and you can add it later: without one, nobody sees you in Discover. JPEG, PNG or WebP, up to 5 MB.
      </p>
      {isFile ? null : (
        <details open={photo !== ''}>
          <summary>Or use a link to a photo</summary>
          <div className="field">
            <label htmlFor="field-photo">Photo link</label>
            <input
              id="field-photo"
              name="photo"
              type="url"
              aria-describedby="field-photo-link-help"
              aria-invalid={error ? true : undefined}
              value={photo}
              onChange={(e) => onChange(e.target.value)}
            />
            <p className="help" id="field-photo-link-help">
              A public https link to a photo of you.
            </p>
          </div>
        </details>
      )}
      {shown ? (
        <p className="error" id="field-photo-error" role={problem ? 'alert' : undefined}>
          {shown}
        </p>
      ) : null}
    </fieldset>
  );
}

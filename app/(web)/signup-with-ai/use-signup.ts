// The signup's state (draft, step, problem) and its one registration POST, sent at most once at a time.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { paths } from '@/lib/contract/paths';
import { normalizeGender, registrationBody, type SignupDraft } from '@/lib/signup-link';
import {
  DONE_KEY,
  emailSigninLink,
  problemFromResponse,
  type ApiErrorBody,
  type Problem,
  type RegisterResult,
} from './signup-api';

export type View =
  | { name: 'review' }
  | { name: 'edit' }
  | { name: 'done'; result: RegisterResult }
  | { name: 'already'; at: string };

export function useSignup({
  initialDraft,
  ownSignup,
  continueTo,
  onView,
}: {
  initialDraft: SignupDraft;
  ownSignup: boolean;
  continueTo?: string;
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

  return { draft, setDraft, view, setView, problem, submitting, ready, focusRef, submit };
}

'use client';
import { useActionState, useEffect } from 'react';
import { ErrorSummary, SavedNotice, useFocusAfterSubmit } from './fields';

/** What the password form's server action answers (app/account/password/actions.ts). */
export interface PasswordFormState {
  ok: boolean;
  message: string | null;
  fields: Record<string, string>;
}

type Action = (state: PasswordFormState, data: FormData) => Promise<PasswordFormState>;

const FIELDS = [
  {
    name: 'currentPassword',
    label: 'Current password',
    autoComplete: 'current-password',
    help: 'The one you use now, or the one your agent gave you.',
  },
  {
    name: 'newPassword',
    label: 'New password',
    autoComplete: 'new-password',
    help: 'At least 8 characters. A few unrelated words make a strong one.',
  },
  {
    name: 'confirmPassword',
    label: 'New password again',
    autoComplete: 'new-password',
    help: 'To be sure it is typed right.',
  },
] as const;

export function PasswordForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, { ok: false, message: null, fields: {} });
  const summary = useFocusAfterSubmit<HTMLDivElement>();
  // Each answer is a new state object: a refusal moves focus to its summary.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per answer (state), not when the focus helper is recreated
  useEffect(() => {
    if (state.message && !state.ok) summary.after();
  }, [state]);
  const items = FIELDS.filter((f) => state.fields[f.name]).map((f) => ({
    fieldId: `password-${f.name}`,
    text: `${f.label}: ${state.fields[f.name]}`,
  }));
  return (
    <form className="stack" action={formAction}>
      {state.message && !state.ok ? <ErrorSummary title={state.message} items={items} focusRef={summary.ref} /> : null}
      {state.message && state.ok ? (
        <div className="notice notice-ok" role="status">
          <p>{state.message}</p>
        </div>
      ) : null}
      {FIELDS.map((f) => {
        const error = state.fields[f.name];
        return (
          <div className="field" key={f.name}>
            <label htmlFor={`password-${f.name}`}>{f.label}</label>
            <input
              id={`password-${f.name}`}
              name={f.name}
              type="password"
              autoComplete={f.autoComplete}
              required
              minLength={f.name === 'currentPassword' ? undefined : 8}
              aria-invalid={error ? true : undefined}
              aria-describedby={`password-${f.name}-help${error ? ` password-${f.name}-error` : ''}`}
            />
            <p className="help" id={`password-${f.name}-help`}>
              {f.help}
            </p>
            {error ? (
              <p className="error" id={`password-${f.name}-error`}>
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <div className="field">
        <label className="checkbox">
          <input type="checkbox" name="revokeAllTokens" aria-describedby="password-revokeAllTokens-help" />
          Sign out everywhere and revoke all assistant tokens
        </label>
        <p className="help" id="password-revokeAllTokens-help">
          Your other browsers are signed out either way. Tick this too if someone else may know your password or hold
          access: every assistant and app that acts for you loses its access at once.
        </p>
      </div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Changing…' : 'Change password'}
        </button>
        <SavedNotice text={state.ok && !pending ? 'Password changed' : null} />
      </div>
    </form>
  );
}

// Small form and status pieces the account pages share, so every field wires its label,
// error and help text to assistive technology the same way.
import type { ReactNode } from 'react';
import { failureText } from './api-client';

/** A labelled textarea whose error (from the API) is announced and tied to it. */
export function TextAreaField(props: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  rows?: number;
  error?: string | null;
}) {
  const { id, error } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        value={props.value}
        rows={props.rows ?? 2}
        maxLength={props.maxLength}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The notice a polling list shows while its last refresh failed (it keeps the data it had). */
export function RefreshProblem({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div className="notice notice-warn" role="status">
      <p>{failureText(error)}</p>
    </div>
  );
}

'use client';
// Small form and status pieces the account pages share, so every field wires its label,
// error and help text to assistive technology the same way.
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
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

/**
 * Moves focus to an element once it has rendered after a submit: call `after()` when the
 * answer arrives, and put `ref` on the error summary (or whatever should take focus).
 * A screen reader then reads the summary, and a keyboard user continues from it.
 */
export function useFocusAfterSubmit<T extends HTMLElement = HTMLElement>() {
  const ref = useRef<T | null>(null);
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (count > 0) ref.current?.focus();
  }, [count]);
  return { ref, after: () => setCount((n) => n + 1) };
}

export interface SummaryItem {
  /** The id of the field the item links to (without '#'). */
  fieldId?: string;
  text: string;
}

/**
 * The error summary a form shows after a refused submit: announced (role=alert), focusable
 * (tabIndex=-1) so focus can move to it, and each item links to its field.
 */
export function ErrorSummary({
  title,
  items = [],
  focusRef,
  id,
  tone = 'error',
  focusOnMount = false,
}: {
  title: string;
  items?: SummaryItem[];
  focusRef?: RefObject<HTMLDivElement | null>;
  id?: string;
  tone?: 'error' | 'warn';
  /** For a page that arrives with the refusal (a form posted without JavaScript, then redirected). */
  focusOnMount?: boolean;
}) {
  const own = useRef<HTMLDivElement | null>(null);
  const ref = focusRef ?? own;
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount, ref]);
  return (
    <div className={`notice notice-${tone} error-summary`} role="alert" tabIndex={-1} ref={ref} id={id}>
      <p>
        <strong>{title}</strong>
      </p>
      {items.length > 0 ? (
        <ul>
          {items.map((item) => (
            <li key={`${item.fieldId ?? ''}:${item.text}`}>
              {item.fieldId ? <a href={`#${item.fieldId}`}>{item.text}</a> : item.text}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * "Saved" next to a form's button: a polite live region that is always in the page (so
 * the change is announced), showing `text` after a successful submit.
 */
export function SavedNotice({ text, id }: { text: string | null; id?: string }) {
  return (
    <span className="saved-notice" role="status" aria-live="polite" id={id}>
      {text ? <>✓ {text}</> : null}
    </span>
  );
}

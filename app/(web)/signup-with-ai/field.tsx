// One labelled form field with its hint and error, wired for screen readers.

import { useId, type ReactNode } from 'react';
import type { SignupParam } from '@/lib/signup-link';

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

export function Field({ param, label, hint, error, required, children }: FieldProps) {
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

// The attributes and error line every profile field shares, by field name.

import type { FormValues } from './profile-form';

/** What each section of the profile form is given. */
export interface ProfileSectionProps {
  values: FormValues;
  set: <K extends keyof FormValues>(key: K, value: FormValues[K]) => void;
  fieldProps: ReturnType<typeof profileFieldKit>['fieldProps'];
  fieldError: ReturnType<typeof profileFieldKit>['fieldError'];
}

export function profileFieldKit(errors: Record<string, string>) {
  const fieldProps = (name: keyof FormValues) => ({
    id: `profile-${name}`,
    name,
    'aria-invalid': errors[name] ? (true as const) : undefined,
    'aria-describedby':
      [errors[name] ? `profile-${name}-error` : '', `profile-${name}-help`].filter(Boolean).join(' ') || undefined,
  });
  const fieldError = (name: keyof FormValues) =>
    errors[name] ? (
      <p className="error" id={`profile-${name}-error`}>
        {errors[name]}
      </p>
    ) : null;
  return { fieldProps, fieldError };
}

// Above the form: why a save was refused, what it warned about, and a change made elsewhere mid-edit.

import type { RefObject } from 'react';
import { ErrorSummary } from './fields';
import { FIELD_LABELS } from './profile-form';
import type { Status } from './profile-save-notes';

export function ProfileStatus({
  status,
  summaryRef,
  errors,
  stale,
  edited,
}: {
  status: Status | null;
  summaryRef: RefObject<HTMLDivElement | null>;
  errors: Record<string, string>;
  stale: boolean;
  edited: boolean;
}) {
  return (
    <>
      {status?.tone === 'error' ? (
        <ErrorSummary
          title={status.title}
          focusRef={summaryRef}
          items={Object.entries(status.listFields ? errors : {}).map(([name, text]) =>
            FIELD_LABELS[name] ? { fieldId: `profile-${name}`, text: `${FIELD_LABELS[name]}: ${text}` } : { text },
          )}
        />
      ) : status ? (
        <div className={`notice notice-${status.tone}`} role="status">
          <p>{status.title}</p>
          {status.details.length > 0 ? (
            <ul>
              {status.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {stale && edited ? (
        <div className="notice notice-warn" role="status">
          <p>
            Your profile was changed elsewhere (perhaps by your agent) while you were editing. Saving keeps your changes
            to the fields you edited.
          </p>
        </div>
      ) : null}
    </>
  );
}

import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways on a narrow screen. The scroll box is a labelled,
 * focusable region so keyboard users can scroll it too.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways on a narrow screen. The scroll box is a labelled,
 * focusable region so keyboard users can scroll it too.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard (axe scrollable-region-focusable)
    // biome-ignore lint/a11y/useSemanticElements: a <section> would add an outline entry; this is a labelled scroll area
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

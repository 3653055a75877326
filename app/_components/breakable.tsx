import type { ReactNode } from 'react';

/** A line break is allowed after each "/" (and before "?" or "&"), so an address wraps between its parts, never mid-word. */
export function breakable(text: string): ReactNode[] {
  const parts = text.split(/(?<=\/)|(?=[?&])/);
  // The parts of one fixed text never move, so where each one starts is a stable key.
  let at = 0;
  return parts.flatMap((part, i) => {
    const start = at;
    at += part.length;
    return i === 0 ? [part] : [<wbr key={start} />, part];
  });
}

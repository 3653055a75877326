// Text from the request that an answer repeats back (an unknown tool's name, a path no
// endpoint serves) is shortened first: echoing it whole turned a 4 MB request into a
// 4 MB answer (issue 28).

export const ECHO_MAX_CHARS = 80;

/** `text` as an answer may quote it: at most `max` characters, with an ellipsis when cut. */
export function echoed(text: string, max = ECHO_MAX_CHARS): string {
  if (text.length <= max) return text;
  // Never cut a surrogate pair in two: a lone half is not valid UTF-8 on the way out.
  const cut = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, cut)}…`;
}

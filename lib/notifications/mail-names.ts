// The one kind of name a mail may carry (issue 46 §5: mails worth reading), under the security
// model's rule that no text someone chose goes into mail (docs/security.md): a first name that is
// plainly a name. Anything else ("www.evil.example", "Ana1", an emoji) is left out.
import { firstName } from '../profiles/records';

/** A first name a mail may carry: letters (with an inner hyphen or apostrophe), at most 20; else null. */
export function mailableFirstName(displayName: string): string | null {
  const name = firstName(displayName).normalize('NFC');
  return /^\p{L}(?:[\p{L}\p{M}]|['’-](?=\p{L})){0,19}$/u.test(name) ? name : null;
}

/** "Ana", "Ana and Sam", "Ana, Sam and Tomás", "Ana, Sam and others": the mailable names of a list. */
export function namesInWords(displayNames: readonly string[], shown = 3): string | null {
  const names = [...new Set(displayNames.map(mailableFirstName).filter((name): name is string => name !== null))];
  if (names.length === 0) return null;
  const others = names.length > shown || names.length < displayNames.length;
  const listed = names.slice(0, shown);
  if (others) return `${listed.join(', ')} and others`;
  if (listed.length === 1) return listed[0]!;
  return `${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}`;
}

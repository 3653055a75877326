// The one rule for every string the API accepts (path parameters, query parameters,
// body fields): no control characters and no lone UTF-16 surrogates. PostgreSQL refuses
// NUL in text (a 500 before this rule), a lone surrogate cannot be stored as UTF-8 (pg
// would silently turn it into U+FFFD), and control characters in names and labels
// break logs, mail headers and terminals. Free text that people write in paragraphs
// (about me, messages, availability, reports) may also hold line breaks and tabs.
//
// Every string schema in a request uses `singleLine()`, `freeText()` or `withTextRule()`;
// lib/contract/text-rule.test.ts walks the whole contract and fails on any that does not.
import { z } from 'zod';

export type TextKind = 'single_line' | 'free_text';

/** Anything the detailed scan below must look at: controls (Cc) and surrogates. Fast to test on long strings (photos). */
const SUSPICIOUS = /[\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]/;

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
const CONTROL_NAMES: Record<number, string> = { 0x00: 'NUL', 0x09: 'tab', 0x0a: 'line feed', 0x0d: 'carriage return', 0x1b: 'escape', 0x7f: 'DEL' };
const describeControl = (code: number) => (CONTROL_NAMES[code] ? `${hex(code)} (${CONTROL_NAMES[code]})` : hex(code));

/**
 * What is wrong with `value` under the rule, in words for error.fields, or null when it
 * passes. Positions count UTF-16 code units from 1, as JavaScript's length does.
 */
export function textProblem(value: string, kind: TextKind): string | null {
  if (!SUSPICIOUS.test(value)) return null;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 1; // a valid pair: one character outside the BMP (emoji and the like)
        continue;
      }
      return `must be valid Unicode text: unpaired surrogate ${hex(code)} at character ${i + 1}`;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return `must be valid Unicode text: unpaired surrogate ${hex(code)} at character ${i + 1}`;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (!control) continue;
    if (kind === 'free_text') {
      if (code === 0x0a || code === 0x09) continue;
      // HTML forms send line breaks as CRLF: a CR is fine as part of one.
      if (code === 0x0d && value.charCodeAt(i + 1) === 0x0a) continue;
      return `must not contain control characters other than line breaks and tabs: ${describeControl(code)} at character ${i + 1}`;
    }
    return `must be one line without control characters: ${describeControl(code)} at character ${i + 1}`;
  }
  return null;
}

/** True when `value` passes the rule; for inputs outside the contract (pages, sign-in, imports). */
export function isCleanText(value: string, kind: TextKind = 'single_line'): boolean {
  return textProblem(value, kind) === null;
}

function textCheck(kind: TextKind) {
  return z.check<string>((payload) => {
    const problem = textProblem(payload.value, kind);
    if (problem) payload.issues.push({ code: 'custom', message: problem, input: payload.value });
  });
}

/** The two checks; the contract test recognises a string schema by carrying one of them. */
export const SINGLE_LINE_RULE = textCheck('single_line');
export const FREE_TEXT_RULE = textCheck('free_text');

type StringParams = Parameters<typeof z.string>[0];

/** One line of text: names, labels, ids, tokens, URLs, query parameters. */
export function singleLine(params?: StringParams) {
  return z.string(params).check(SINGLE_LINE_RULE);
}

/** Text people write in paragraphs (about me, messages, reports): line breaks and tabs allowed. */
export function freeText(params?: StringParams) {
  return z.string(params).check(FREE_TEXT_RULE);
}

/** Base64 (photos): MIME base64 wraps its lines (RFC 2045), so line breaks pass as in free text. */
export function base64Text(params?: StringParams) {
  return z.string(params).check(FREE_TEXT_RULE);
}

/** The rule on a string format schema (z.url(), z.iso.date(), ...). */
export function withTextRule<T extends z.ZodType<string, string>>(schema: T, kind: TextKind = 'single_line'): T {
  return schema.check(kind === 'free_text' ? FREE_TEXT_RULE : SINGLE_LINE_RULE) as T;
}

/** The rule in words, for the guides and OpenAPI. */
export const TEXT_RULE_IN_WORDS =
  'Every string field, path and query parameter refuses control characters (U+0000-U+001F, U+007F-U+009F) and unpaired ' +
  'UTF-16 surrogates with 400 validation_failed naming the field; free-text fields (aboutMe, availability_text, messages, ' +
  'request and report text) may contain line breaks and tabs.';

// The one rule for every string the API accepts (path parameters, query parameters,
// body fields): no control characters and no lone UTF-16 surrogates. PostgreSQL refuses
// NUL in text (a 500 before this rule), a lone surrogate cannot be stored as UTF-8 (pg
// would silently turn it into U+FFFD), and control characters in names and labels
// break logs, mail headers and terminals. Free text that people write in paragraphs
// (about me, messages, availability, reports) may also hold line breaks and tabs.
//
// Every string schema in a request uses `singleLine()`, `freeText()` or `withTextRule()`;
// lib/contract/text-rule.test.ts walks the whole contract and fails on any that does not.
// It lives in lib/core so a domain folder (lib/availability) can build a schema with it without
// importing the contract; lib/contract/text.ts re-exports it with the contract's human messages.
import { z } from 'zod';

export type TextKind = 'single_line' | 'free_text';

const LONE_SURROGATE_SOURCE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
/** The first character each kind refuses: Cc controls (C0, DEL, C1) and lone surrogates; free text keeps LF, tab and CRLF. */
const REFUSED: Record<TextKind, RegExp> = {
  single_line: new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F]|${LONE_SURROGATE_SOURCE}`),
  free_text: new RegExp(
    `[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]|\\r(?!\\n)|${LONE_SURROGATE_SOURCE}`,
  ),
};

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
const CONTROL_NAMES: Record<number, string> = {
  0: 'NUL',
  9: 'tab',
  10: 'line feed',
  13: 'carriage return',
  27: 'escape',
  127: 'DEL',
};
const describeControl = (code: number) => (CONTROL_NAMES[code] ? `${hex(code)} (${CONTROL_NAMES[code]})` : hex(code));

/**
 * What is wrong with `value` under the rule, in words for error.fields, or null when it
 * passes. Positions count UTF-16 code units from 1, as JavaScript's length does. One
 * native regex search, so a 7 MB base64 photo costs milliseconds.
 */
export function textProblem(value: string, kind: TextKind): string | null {
  const found = REFUSED[kind].exec(value);
  if (!found) return null;
  const code = value.charCodeAt(found.index);
  const at = `at character ${found.index + 1}`;
  if (code >= 0xd800 && code <= 0xdfff) return `must be valid Unicode text: unpaired surrogate ${hex(code)} ${at}`;
  if (kind === 'free_text')
    return `must not contain control characters other than line breaks and tabs: ${describeControl(code)} ${at}`;
  return `must be one line without control characters: ${describeControl(code)} ${at}`;
}

/** True when `value` passes the rule; for inputs outside the contract (pages, sign-in, imports). */
export function isCleanText(value: string, kind: TextKind = 'single_line'): boolean {
  return textProblem(value, kind) === null;
}

const LONE_SURROGATE = new RegExp(LONE_SURROGATE_SOURCE, 'g');
const CONTROLS_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F]/g;
const CONTROLS_FREE_TEXT = /\r(?!\n)|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * Text from outside (imported feeds) made to pass the rule rather than refused: control
 * characters removed (in free text, line breaks and tabs kept; a lone CR becomes a line
 * break), lone surrogates replaced by U+FFFD, as a UTF-8 decoder would.
 */
export function sanitizeText(value: string, kind: TextKind = 'single_line'): string {
  if (!REFUSED[kind].test(value)) return value;
  const controls = kind === 'free_text' ? CONTROLS_FREE_TEXT : CONTROLS_SINGLE_LINE;
  return value.replace(LONE_SURROGATE, '\uFFFD').replace(controls, (c) => (c === '\r' ? '\n' : ''));
}

/** Replaces lone surrogates with U+FFFD, so encodeURIComponent cannot throw on the text. */
export function wellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\uFFFD');
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
  'Every string field and parameter refuses control characters (U+0000-U+001F, U+007F-U+009F) and lone UTF-16 ' +
  'surrogates (400 validation_failed, naming the field); free text (aboutMe, availability_text, messages, ' +
  'request and report text) may hold line breaks and tabs.';

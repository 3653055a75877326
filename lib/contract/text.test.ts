import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesToFields } from './validation';
import { freeText, sanitizeText, singleLine, textProblem, wellFormed } from './text';

describe('textProblem', () => {
  it.each([
    ['plain ASCII', 'Sam from Portland', null, null],
    ['accents and CJK', 'Zoë 東京', null, null],
    ['an emoji (a valid surrogate pair)', 'hi 👋🏽', null, null],
    ['a zero-width joiner emoji', '👩‍👩‍👧', null, null],
    ['U+FFFD', 'a\uFFFDb', null, null],
    ['a line feed', 'line one\nline two', /one line.*U\+000A \(line feed\) at character 9/, null],
    ['a tab', 'a\tb', /U\+0009 \(tab\)/, null],
    ['CRLF', 'a\r\nb', /U\+000D/, null],
    ['a lone CR', 'a\rb', /U\+000D/, /U\+000D \(carriage return\)/],
    ['NUL', 'ab\u0000', /U\+0000 \(NUL\) at character 3/, /U\+0000 \(NUL\) at character 3/],
    ['escape', '\u001B[2J', /U\+001B \(escape\) at character 1/, /U\+001B/],
    ['DEL', 'a\u007F', /U\+007F \(DEL\)/, /U\+007F/],
    ['C1 NEL', 'a\u0085', /U\+0085/, /U\+0085/],
    ['a lone high surrogate', 'a\uD800b', /unpaired surrogate U\+D800 at character 2/, /unpaired surrogate U\+D800/],
    ['a high surrogate at the end', 'ab\uDBFF', /unpaired surrogate U\+DBFF at character 3/, /U\+DBFF/],
    ['a lone low surrogate', '\uDC00', /unpaired surrogate U\+DC00 at character 1/, /U\+DC00/],
    ['two high surrogates', '\uD800\uD800\uDC00', /U\+D800 at character 1/, /U\+D800 at character 1/],
  ] as const)('%s', (_name, value, singleLineProblem, freeTextProblem) => {
    const single = textProblem(value, 'single_line');
    const free = textProblem(value, 'free_text');
    if (singleLineProblem) expect(single).toMatch(singleLineProblem);
    else expect(single).toBeNull();
    if (freeTextProblem) expect(free).toMatch(freeTextProblem);
    else expect(free).toBeNull();
  });

  it('scans a 7 MB base64 photo quickly', () => {
    const big = `${'QUJD'.repeat(7 * 1024 * 256)}\n`;
    const started = performance.now();
    expect(textProblem(big, 'free_text')).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('singleLine / freeText in a schema', () => {
  const schema = z.strictObject({ name: singleLine().trim().max(10), about: freeText().max(100) });

  it('names the field and says what is wrong, before any length message', () => {
    const result = schema.safeParse({ name: 'Sam\u0000'.repeat(5), about: 'ok\n\tfine' });
    expect(result.success).toBe(false);
    expect(issuesToFields(result.error!.issues)).toEqual({
      name: 'must be one line without control characters: U+0000 (NUL) at character 4',
    });
  });

  it('lets free text keep its line breaks and tabs', () => {
    expect(schema.parse({ name: 'Sam', about: 'line one\r\nline two\n\tindented' })).toEqual({
      name: 'Sam',
      about: 'line one\r\nline two\n\tindented',
    });
  });
});

describe('sanitizeText (imported feeds)', () => {
  it.each([
    ['Run\u0000 club', 'single_line', 'Run club'],
    ['Run\nclub\t!', 'single_line', 'Runclub!'],
    ['line one\r\nline two\rthree\u0007', 'free_text', 'line one\r\nline two\nthree'],
    ['tab\there', 'free_text', 'tab\there'],
    ['bad \uD800 pair, good 👋', 'single_line', 'bad \uFFFD pair, good 👋'],
    ['\uDC00\uD800', 'free_text', '\uFFFD\uFFFD'],
    ['plain', 'single_line', 'plain'],
  ] as const)('%j (%s) → %j', (input, kind, expected) => {
    const output = sanitizeText(input, kind);
    expect(output).toBe(expected);
    expect(textProblem(output, kind)).toBeNull();
  });

  it('wellFormed only replaces lone surrogates', () => {
    expect(wellFormed('a\uD800b\u0000👋')).toBe('a\uFFFDb\u0000👋');
    expect(() => encodeURIComponent(wellFormed('\uDFFF'))).not.toThrow();
  });
});

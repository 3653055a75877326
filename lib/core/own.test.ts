// The lookups that took a word from input to Object.prototype (issue 41 §3), each with the word that broke it.
import { describe, expect, it } from 'vitest';
import { genderFromWord, unknownActivitiesMessage } from '../contract/forgiving';
import { issuesToFields, parseOrThrow, unknownNameFields } from '../contract/validation';
import { normalizeGender } from '../signup-link';
import { emptyRecord, own } from './own';
import { z } from 'zod';

const WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

describe('own() and emptyRecord()', () => {
  it.each(WORDS)('never answer what a plain object inherits: %s', (word) => {
    expect(own({ hiking: 1 }, word)).toBeUndefined();
    expect(own({ [word]: 2 }, word)).toBe(2);
    const record = emptyRecord<string>();
    record[word] = 'kept';
    expect(Object.keys(record)).toEqual([word]);
    expect(JSON.parse(JSON.stringify(record))).toEqual(JSON.parse(`{"${word}": "kept"}`));
  });
});

describe.each(WORDS)('the word %s', (word) => {
  it('is no gender (was the Object function, stored as a gender: a 500)', () => {
    expect(genderFromWord(word)).toBeNull();
    expect(normalizeGender(word)).toBe(word);
  });

  it('is an unknown activity with no suggestion (was "close.join is not a function")', () => {
    expect(unknownActivitiesMessage([word], {})).toContain(`"${word}"`);
  });

  it('is an unknown field that keeps its name in error.fields (was dropped)', () => {
    const schema = z.strictObject({ aboutMe: z.string() });
    const result = schema.safeParse(JSON.parse(`{"${word}": 1, "aboutMe": "x"}`));
    expect(result.success).toBe(false);
    expect(Object.keys(issuesToFields(result.error!.issues))).toEqual([word]);
    expect(Object.keys(unknownNameFields([word], ['aboutMe'], 'field'))).toEqual([word]);
    expect(() => parseOrThrow(schema, JSON.parse(`{"${word}": 1, "aboutMe": "x"}`), 'body')).toThrow(
      `${word} is not a field we know`,
    );
  });
});

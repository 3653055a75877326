import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  activityListSchema,
  birthdayInputSchema,
  collectNormalizations,
  coordsInputSchema,
  genderFromWord,
  genderInputSchema,
  listOrCommaText,
  readBirthday,
  reportReasonFromWords,
  reportReasonInputSchema,
  splitList,
  timezoneInputSchema,
} from './forgiving';
import { toJsonSchema } from '../docs/json-schema';
import { birthdaySchema, GENDERS } from './schemas';

const parse = (schema: z.ZodType, input: unknown) => collectNormalizations(() => schema.safeParse(input));

describe('readBirthday', () => {
  it.each([
    ['1990-03-03', '1990-03-03'],
    ['1990/03/03', '1990-03-03'],
    ['1990.3.3', '1990-03-03'],
    ['1990-03-03T00:00:00Z', '1990-03-03'],
    ['March 3 1990', '1990-03-03'],
    ['March 3, 1990', '1990-03-03'],
    ['Mar 3rd, 1990', '1990-03-03'],
    ['3 March 1990', '1990-03-03'],
    ['3rd of March 1990'.replace(' of', ''), '1990-03-03'],
    ['Sept. 21 1985', '1985-09-21'],
    ['21/09/1985', '1985-09-21'],
    ['09/21/1985', '1985-09-21'],
    ['05/05/1990', '1990-05-05'],
  ])('%s → %s', (text, date) => {
    expect(readBirthday(text)).toEqual({ date });
  });

  it.each([
    ['03/04/1990', /ambiguous \(3 April or March 4\?\): use YYYY-MM-DD, e\.g\. 1990-04-03/],
    ['February 30 1990', /not a real date/],
    ['1990-13-01', /not a real date/],
    ['Ma 3 1990', /use YYYY-MM-DD/],
    ['last spring', /use YYYY-MM-DD/],
    ['13/13/1990', /use YYYY-MM-DD/],
  ])('refuses %s', (text, problem) => {
    const reading = readBirthday(text);
    expect('problem' in reading && reading.problem).toMatch(problem);
  });
});

describe('forgiving schemas', () => {
  const birthday = birthdayInputSchema(birthdaySchema);

  it('passes the documented forms through without a note', () => {
    for (const [schema, input] of [
      [birthday, '1990-03-03'],
      [genderInputSchema, 'non_binary'],
      [coordsInputSchema, { latitude: 38.7, longitude: -9.1 }],
      [listOrCommaText('activities', z.array(z.string())), ['hiking']],
    ] as const) {
      const { value, normalized } = parse(schema, input);
      expect(value.success).toBe(true);
      expect(value.data).toEqual(input);
      expect(normalized).toEqual([]);
    }
  });

  it.each([
    [genderInputSchema, 'Woman', 'female', 'gender: "Woman" was read as female'],
    [genderInputSchema, 'non-binary', 'non_binary', 'gender: "non-binary" was read as non_binary'],
    [
      genderInputSchema,
      'Prefer not to say',
      'prefer_not_to_say',
      'gender: "Prefer not to say" was read as prefer_not_to_say',
    ],
    [
      coordsInputSchema,
      '38.7,-9.1',
      { latitude: 38.7, longitude: -9.1 },
      'coords: the text "38.7,-9.1" was read as latitude 38.7, longitude -9.1',
    ],
    [
      coordsInputSchema,
      '(38.7, -9.1)',
      { latitude: 38.7, longitude: -9.1 },
      'coords: the text "(38.7, -9.1)" was read as latitude 38.7, longitude -9.1',
    ],
    [birthday, 'March 3 1990', '1990-03-03', 'birthday: "March 3 1990" was read as 1990-03-03'],
    [
      listOrCommaText('activities', z.array(z.string())),
      'hiking, board games; coffee',
      ['hiking', 'board games', 'coffee'],
      'activities: the text "hiking, board games; coffee" was read as the list ["hiking","board games","coffee"]',
    ],
  ])('normalises %#: %j', (schema, input, output, note) => {
    const { value, normalized } = parse(schema, input);
    expect(value.data).toEqual(output);
    expect(normalized).toEqual([note]);
  });

  it.each([
    [genderInputSchema, 'robot', /^use one of male, female, non_binary, prefer_not_to_say/],
    [coordsInputSchema, '91,0', /^must be 90 or less$/],
    [coordsInputSchema, 'Lisbon', /use \{"latitude"/],
    [birthday, '03/04/1990', /ambiguous/],
    [birthday, 'March 3 2024', /^You need to be 13 or older$/],
  ])('refuses %#: %j with the fix', (schema, input, message) => {
    const { value, normalized } = parse(schema, input);
    expect(value.success).toBe(false);
    expect(value.error!.issues[0]!.message).toMatch(message);
    expect(normalized.length).toBeLessThanOrEqual(1);
  });

  it('keeps the array limits for a comma-separated string', () => {
    const schema = listOrCommaText('activities', z.array(z.string()).max(2));
    expect(schema.safeParse('a, b, c').success).toBe(false);
  });

  it('notes only inside a collecting parse, and nested parses keep their own notes', () => {
    expect(genderInputSchema.parse('woman')).toBe('female');
    const outer = collectNormalizations(() => {
      const inner = collectNormalizations(() => genderInputSchema.parse('man'));
      expect(inner.normalized).toEqual(['gender: "man" was read as male']);
      return genderInputSchema.parse('woman');
    });
    expect(outer.normalized).toEqual(['gender: "woman" was read as female']);
  });

  it('splits lists on commas, semicolons and new lines, dropping empty items', () => {
    expect(splitList(' hiking ,, coffee;\nchess ')).toEqual(['hiking', 'coffee', 'chess']);
  });
});

describe('activityListSchema', () => {
  const query = activityListSchema({ field: 'activities', form: 'query', max: 3, describe: 'x' });
  const body = activityListSchema({ field: 'activityIds', form: 'body', max: 3, describe: 'x', allowEmpty: true });

  it.each([
    [query, 'hiking, rock_climbing', ['hiking', 'rock_climbing'], []],
    [
      query,
      'bouldering,Board Games',
      ['rock_climbing', 'board_games'],
      ['activities: "bouldering" was read as rock_climbing'],
    ],
    [query, 'hiking,hiking', ['hiking'], []],
    [body, ['bouldering'], ['rock_climbing'], ['activityIds: "bouldering" was read as rock_climbing']],
    [
      body,
      'hiking, chess',
      ['hiking', 'chess'],
      ['activityIds: the text "hiking, chess" was read as the list ["hiking","chess"]'],
    ],
    [body, [], [], []],
  ])('%#: %j → %j', (schema, input, ids, notes) => {
    const { value, normalized } = parse(schema, input);
    expect(value.data).toEqual(ids);
    expect(normalized).toEqual(notes);
  });

  it.each([
    [
      query,
      'hiking,hikking,qwzxv',
      /^unknown activities: "hikking" \(did you mean hiking, .*\?\), "qwzxv"; plain English works/,
    ],
    [query, ' , ', /name at least one activity/],
    [
      query,
      'a,b,c,d'.replace(/[a-d]/g, (l) => ({ a: 'hiking', b: 'chess', c: 'yoga', d: 'tennis' })[l]!),
      /at most 3 activities/,
    ],
    [body, ['x'.repeat(101)], /100/],
    [query, 'hiking,'.repeat(7), /at most 3 activities/],
  ])('%#: refuses %j', (schema, input, message) => {
    const { value } = parse(schema, input);
    expect(value.error!.issues[0]!.message).toMatch(message);
  });

  it('costs little whatever the query holds (issue 28): many words, or sentences that match nothing', () => {
    const events = activityListSchema({ field: 'activities', form: 'query', max: 20, describe: 'x' });
    const sentences = Array.from({ length: 40 }, (_, i) => `zq${i} ${'hikin skatin '.repeat(3)}`).join(',');
    const started = performance.now();
    const many = parse(events, 'hikin,'.repeat(300));
    const unknown = parse(events, sentences.slice(0, 2000));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(many.value.error!.issues[0]!.message).toMatch(/at most 20 activities/);
    // The first three unknown words are named, with suggestions.
    const message = unknown.value.error!.issues[0]!.message;
    expect(message).toMatch(/^unknown activities: "zq0 [^"]*" \(did you mean hiking\?\), "zq1 .*"zq2 [^"]*" \(did/);
    expect(message).not.toContain('zq3');
  });
});

// Words that name Object.prototype's properties are words like any other (issue 41: "constructor"
// answered 500 on Discover and the events feed, "close.join is not a function").
const PROTOTYPE_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe("forgiving fields with the prototype's property names (issue 41)", () => {
  it.each(PROTOTYPE_WORDS)('%s is an unknown activity, refused like any unknown word', (word) => {
    for (const schema of [
      activityListSchema({ field: 'activities', form: 'query', max: 3, describe: 'x' }),
      activityListSchema({ field: 'activityIds', form: 'body', max: 3, describe: 'x' }),
    ]) {
      const { value } = parse(schema, word);
      expect(value.error!.issues[0]!.message).toMatch(new RegExp(`^unknown activity: "${word}"[ ;]`));
      const { value: mixed } = parse(schema, `hiking, ${word}`);
      expect(mixed.error!.issues[0]!.message).toMatch(/^unknown activity: /);
    }
  });

  it.each(PROTOTYPE_WORDS)('%s is no gender, no time zone and no report reason', (word) => {
    expect(genderFromWord(word)).toBeNull();
    expect(parse(genderInputSchema, word).value.success).toBe(false);
    expect(parse(timezoneInputSchema, word).value.error!.issues[0]!.message).toMatch(/^unknown time zone/);
    expect(reportReasonFromWords(word)).toBeNull();
  });
});

describe('timezoneInputSchema', () => {
  it('keeps an IANA name and fixes its letter case, noting it', () => {
    expect(parse(timezoneInputSchema, 'Europe/Lisbon')).toMatchObject({
      value: { success: true, data: 'Europe/Lisbon' },
      normalized: [],
    });
    expect(parse(timezoneInputSchema, 'america/new_york')).toMatchObject({
      value: { success: true, data: 'America/New_York' },
      normalized: ['timezone: "america/new_york" was read as America/New_York'],
    });
  });

  it('refuses a misspelt zone or an offset, with the closest names', () => {
    const misspelt = timezoneInputSchema.safeParse('Europe/Lisbn');
    expect(misspelt.error?.issues[0]?.message).toMatch(
      /unknown time zone "Europe\/Lisbn": did you mean Europe\/Lisbon/,
    );
    const city = timezoneInputSchema.safeParse('Lisbon');
    expect(city.error?.issues[0]?.message).toMatch(/did you mean Europe\/Lisbon\?/);
    const offset = timezoneInputSchema.safeParse('+01:00');
    expect(offset.error?.issues[0]?.message).toMatch(/IANA time zone name such as "Europe\/Lisbon"/);
  });
});

describe('report reasons in plain words (issue 30 §3)', () => {
  it.each([
    ['Their profile looks fake', 'fake_profile'],
    ['catfish', 'fake_profile'],
    ['fake profile', 'fake_profile'],
    ['Fake-Profile', 'fake_profile'],
    ['keeps sending me crypto links', 'spam'],
    ['He kept messaging after I said no', 'harassment'],
    ['sent explicit photos', 'inappropriate_content'],
    ['I think she is a minor', 'underage'],
    ['I felt unsafe meeting him', 'safety_concern'],
    ['something else', 'other'],
  ])('reads %j as %s', (words, reason) => {
    expect(reportReasonFromWords(words)).toBe(reason);
  });

  it('notes the reading, passes the enum through silently, and refuses words that name no reason with the list', () => {
    expect(parse(reportReasonInputSchema, 'Their profile looks fake')).toMatchObject({
      value: { success: true, data: 'fake_profile' },
      normalized: ['reason: "Their profile looks fake" was read as fake_profile'],
    });
    expect(parse(reportReasonInputSchema, 'spam')).toMatchObject({ value: { data: 'spam' }, normalized: [] });
    const refused = parse(reportReasonInputSchema, 'boring').value;
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toContain('fake_profile');
  });
});

describe('published schemas of forgiving fields (issue 30 §4)', () => {
  it('show the documented form first, then the text the server also reads, on input only', () => {
    expect(toJsonSchema(genderInputSchema, 'input', 'draft-2020-12')).toEqual({
      anyOf: [
        { type: 'string', enum: [...GENDERS] },
        { type: 'string', maxLength: 40 },
      ],
    });
    const birthday = toJsonSchema(birthdayInputSchema(birthdaySchema), 'input', 'draft-2020-12');
    expect(birthday.anyOf).toEqual([expect.objectContaining({ format: 'date' }), { type: 'string', maxLength: 40 }]);
    expect(toJsonSchema(reportReasonInputSchema, 'output', 'draft-2020-12')).toMatchObject({ enum: expect.any(Array) });
  });
});

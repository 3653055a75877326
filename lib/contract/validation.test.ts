import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsQuerySchema, EVENTS_QUERY_KEYS } from './events';
import { ApiError } from '../core/errors';
import { fieldLabel } from './human-errors';
import { closestName, parseOrThrow, refuseUnknownQuery, takesFurtherKeys, unknownNameFields } from './validation';

describe('closestName', () => {
  it.each([
    ['activity', 'activities'],
    ['Activities', 'activities'],
    ['limt', 'limit'],
    ['sort_by', 'sort'],
    ['date-from', 'date_from'],
    ['lang', undefined],
    ['x', undefined],
  ])('%s → %s', (name, expected) => {
    expect(closestName(name, EVENTS_QUERY_KEYS)).toBe(expected);
  });
});

describe('refuseUnknownQuery', () => {
  const schema = z.object({ view: z.string().optional(), limit: z.string().optional() });
  it('refuses each unknown name with a did-you-mean, and passes known ones', () => {
    expect(() => refuseUnknownQuery(schema, new URLSearchParams('view=a&limit=1'))).not.toThrow();
    try {
      refuseUnknownQuery(schema, new URLSearchParams('veiw=a&page=2'));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).fields).toEqual({
        veiw: 'unknown parameter (did you mean view?)',
        page: 'unknown parameter',
      });
    }
  });
  it('refuses any parameter where the endpoint takes none', () => {
    expect(() => refuseUnknownQuery(undefined, new URLSearchParams())).not.toThrow();
    expect(() => refuseUnknownQuery(undefined, new URLSearchParams('x=1'))).toThrow(ApiError);
  });
  it("leaves a schema with a catchall (events.json's forwarding) alone", () => {
    expect(takesFurtherKeys(eventsQuerySchema)).toBe(true);
    expect(takesFurtherKeys(z.strictObject({}))).toBe(false);
    expect(() => refuseUnknownQuery(eventsQuerySchema, new URLSearchParams('activity=x'))).not.toThrow();
  });
  it('unknownNameFields skips known names', () => {
    expect(unknownNameFields(['view', 'vew'], ['view'], 'field')).toEqual({
      vew: 'unknown field (did you mean view?)',
    });
  });
});

describe("names that are Object.prototype's properties (issue 41)", () => {
  const WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    return expect.unreachable();
  };

  it('an unknown body field is named in error.fields and in the message, like any other name', () => {
    // JSON.parse makes "__proto__" an own property, as a request body does.
    const body = JSON.parse(`{${WORDS.map((w) => `"${w}": 1`).join(',')}}`) as unknown;
    const error = refusal(() => parseOrThrow(z.strictObject({ name: z.string().optional() }), body, 'body'));
    expect(Object.keys(error.fields!).sort()).toEqual([...WORDS].sort());
    for (const word of WORDS) expect(error.fields![word]).toBe('unknown field');
    expect(error.message).toContain('constructor is not a field we know');
    expect(JSON.parse(JSON.stringify(error.fields))).toEqual(
      Object.fromEntries(WORDS.map((w) => [w, 'unknown field'])),
    );
  });

  it('an unknown query parameter is named, like any other name', () => {
    const schema = z.object({ view: z.string().optional() });
    const params = new URLSearchParams(WORDS.map((w) => [w, '1']));
    const error = refusal(() => refuseUnknownQuery(schema, params));
    expect(Object.keys(error.fields!).sort()).toEqual([...WORDS].sort());
  });

  it.each(WORDS)('%s reads as words, not as a label found on the prototype', (word) => {
    expect(fieldLabel(word)).toMatch(/^[A-Z][a-z ]+$/);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsQuerySchema, EVENTS_QUERY_KEYS } from './events';
import { ApiError } from '../core/errors';
import { closestName, refuseUnknownQuery, takesFurtherKeys, unknownNameFields } from './validation';

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

import { describe, expect, it } from 'vitest';
import { eventsQuerySchema } from '../contract/events';
import { issuesToFields } from '../contract/validation';
import { bboxCenter, parseBbox, parseDateBound, parseList, parsePoint } from './event-params';

describe('parseBbox', () => {
  it('reads minLon,minLat,maxLon,maxLat', () => {
    expect(parseBbox('-123.5, 45,-122,46.25')).toEqual({ minLon: -123.5, minLat: 45, maxLon: -122, maxLat: 46.25 });
    expect(parseBbox('170,-20,-170,20')).toEqual({ minLon: 170, minLat: -20, maxLon: -170, maxLat: 20 });
  });

  it.each(['1,2,3', '1,2,3,4,5', 'a,b,c,d', '0,50,10,40', '-181,0,0,1', '0,-91,1,0', '1e2,0,0,1', ''])(
    'rejects %j',
    (text) => {
      expect(parseBbox(text)).toBeNull();
    },
  );

  it('finds the centre, also across the antimeridian', () => {
    expect(bboxCenter({ minLon: 0, minLat: 40, maxLon: 10, maxLat: 50 })).toEqual({ latitude: 45, longitude: 5 });
    expect(bboxCenter({ minLon: 170, minLat: -20, maxLon: -170, maxLat: 20 })).toEqual({ latitude: 0, longitude: 180 });
  });
});

describe('parsePoint, parseList, parseDateBound', () => {
  it('reads lat,lon', () => {
    expect(parsePoint('52.52,13.405')).toEqual({ latitude: 52.52, longitude: 13.405 });
    expect(parsePoint('13.405')).toBeNull();
    expect(parsePoint('95,0')).toBeNull();
  });

  it('splits, trims and de-duplicates lists', () => {
    expect(parseList(' hiking, ,yoga,hiking ')).toEqual(['hiking', 'yoga']);
    expect(parseList(undefined)).toEqual([]);
  });

  it('accepts real dates and date-times with offsets only', () => {
    expect(parseDateBound('2026-02-28')).toEqual({ kind: 'date', date: '2026-02-28' });
    expect(parseDateBound('2026-02-30')).toBeNull();
    expect(parseDateBound('2026-03-01T10:00:00+01:00')).toEqual({
      kind: 'instant',
      at: new Date('2026-03-01T09:00:00Z'),
    });
    expect(parseDateBound('2026-03-01T10:00:00')).toBeNull();
    expect(parseDateBound('tomorrow')).toBeNull();
  });
});

describe('eventsQuerySchema', () => {
  it('applies defaults and lets unknown parameters through', () => {
    expect(eventsQuerySchema.parse({ city: 'Berlin', lang: 'de', page_token: 'abc' })).toEqual({
      limit: 40,
      offset: 0,
      city: 'Berlin',
      lang: 'de',
      page_token: 'abc',
    });
  });

  it('names every bad parameter', () => {
    const result = eventsQuerySchema.safeParse({
      limit: '0',
      offset: 'x',
      activities: 'hiking,nope',
      date_from: '2026-13-01',
      bbox: '1,2,3',
      sort: 'price',
      near: 'here',
      q: 'x'.repeat(201),
    });
    expect(result.success).toBe(false);
    const fields = issuesToFields(result.error!.issues);
    expect(Object.keys(fields).sort()).toEqual([
      'activities',
      'bbox',
      'date_from',
      'limit',
      'near',
      'offset',
      'q',
      'sort',
    ]);
    expect(fields.limit).toBe('must be at least 1');
    expect(fields.sort).toBe('Sort must be one of: start, distance');
  });

  it('rejects date_to before date_from', () => {
    const result = eventsQuerySchema.safeParse({ date_from: '2026-03-10', date_to: '2026-03-09' });
    expect(issuesToFields(result.error!.issues)).toEqual({ date_to: 'must not be before date_from' });
    expect(eventsQuerySchema.safeParse({ date_from: '2026-03-10', date_to: '2026-03-10' }).success).toBe(true);
  });
});

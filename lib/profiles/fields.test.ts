import { describe, expect, it } from 'vitest';
import { resolveProfileInput, timezoneColumns } from './fields';

const lisbon = { latitude: 38.72, longitude: -9.14 };
const madrid = { latitude: 40.42, longitude: -3.7 };

describe('timezoneColumns', () => {
  it('derives the zone from coordinates at registration, or names none without them', () => {
    expect(timezoneColumns({}, { ...lisbon }, null)).toEqual({ timezone: 'Europe/Lisbon', timezone_source: 'coords' });
    expect(timezoneColumns({}, {}, null)).toEqual({ timezone: null, timezone_source: null });
  });

  it('keeps a zone the person named, whatever the coordinates', () => {
    expect(timezoneColumns({ timezone: 'Asia/Tokyo' }, { ...lisbon }, null)).toEqual({
      timezone: 'Asia/Tokyo',
      timezone_source: 'person',
    });
    expect(timezoneColumns({}, { ...madrid }, { ...lisbon, timezone_source: 'person' })).toEqual({});
  });

  it('moves a derived zone with the coordinates, and leaves it when they stay', () => {
    expect(timezoneColumns({}, { ...madrid }, { ...lisbon, timezone_source: 'coords' })).toEqual({
      timezone: 'Europe/Madrid',
      timezone_source: 'coords',
    });
    expect(timezoneColumns({}, { about_me: 'hi' }, { ...lisbon, timezone_source: 'coords' })).toEqual({});
    expect(timezoneColumns({}, { latitude: null, longitude: null }, { ...lisbon, timezone_source: 'coords' })).toEqual({
      timezone: null,
      timezone_source: null,
    });
  });

  it('goes back to the coordinates’ zone when the person clears theirs (null)', () => {
    expect(timezoneColumns({ timezone: null }, {}, { ...lisbon, timezone_source: 'person' })).toEqual({
      timezone: 'Europe/Lisbon',
      timezone_source: 'coords',
    });
  });
});

describe('resolveProfileInput coords', () => {
  it('reads a coordinate within a nanometre of 0 as 0 (PostgreSQL refuses float8 underflow)', () => {
    const { columns } = resolveProfileInput({ coords: { latitude: 7.4e-323, longitude: -179.9999999999995 } });
    expect(columns).toMatchObject({ latitude: 0, longitude: -179.9999999999995 });
  });
});

describe('resolveProfileInput: location', () => {
  it('places "Camden, London" in London and says it used the city’s centre (issue 44 §1)', () => {
    const { columns, warnings } = resolveProfileInput({ location: 'Camden, London' });
    expect(columns).toMatchObject({ public_location: 'London, GB', coords_source: 'gazetteer' });
    expect(columns.latitude).toBeCloseTo(51.51, 1);
    expect(warnings.normalized).toEqual([
      'location: "Camden" is not on the offline map: placed at the centre of London, GB (send coords for a nearer point)',
    ]);
  });

  it('reads a bare name as its most likely place and names the other strong ones', () => {
    const { columns, warnings } = resolveProfileInput({ location: 'Richmond' });
    expect(columns.public_location).toBe('Richmond, Virginia, US');
    expect(warnings.normalized).toEqual([
      'location: "Richmond" names several places: read as Richmond, Virginia, US; it may also be Richmond, CA or Richmond, California, US (add the region or country, or send coords)',
    ]);
  });

  it('says nothing more where the place named is the place found', () => {
    for (const location of ['Richmond, London', 'Lisbon, Portugal', 'Portland, Oregon']) {
      expect(resolveProfileInput({ location }).warnings.normalized, location).toBeUndefined();
    }
  });
});

// Issue 43 §6: "climbing" became rock_climbing with no note.
describe('resolveProfileInput: activities', () => {
  it('notes each activity read in other words than its own, and nothing for an exact one', () => {
    const { columns, warnings } = resolveProfileInput({ activities: ['climbing', 'Tennis', 'hiking & yoga'] });
    expect(columns.activities).toEqual(['rock_climbing', 'tennis', 'hiking', 'yoga']);
    expect(warnings.normalized).toEqual([
      'activities: "climbing" was read as rock_climbing',
      'activities: "hiking & yoga" was read as hiking, yoga',
    ]);
    expect(resolveProfileInput({ activities: ['rock_climbing', 'Rock Climbing'] }).warnings.normalized).toBeUndefined();
  });
});

import tzlookup from '@photostructure/tz-lookup';
import { describe, expect, it } from 'vitest';
import {
  canonicalTimezone,
  KNOWN_TIMEZONES,
  SELECTABLE_TIMEZONES,
  timezoneForPoint,
  timezoneSuggestions,
} from './timezone';

describe('timezoneForPoint', () => {
  it('finds the zone on either side of a border', () => {
    expect(timezoneForPoint(38.72, -9.14)).toBe('Europe/Lisbon');
    expect(timezoneForPoint(40.42, -3.7)).toBe('Europe/Madrid');
    // Elvas (Portugal) and Badajoz (Spain), 10 km apart.
    expect(timezoneForPoint(38.88, -7.16)).toBe('Europe/Lisbon');
    expect(timezoneForPoint(38.88, -6.97)).toBe('Europe/Madrid');
    expect(timezoneForPoint(28.61, 77.21)).toBe('Asia/Kolkata');
    expect(timezoneForPoint(40.71, -74.0)).toBe('America/New_York');
  });

  it('answers with a known name everywhere on Earth (so every stored name is enumerable)', () => {
    const known = new Set(KNOWN_TIMEZONES);
    const unknown = new Set<string>();
    for (let lat = -89.5; lat < 90; lat += 1) {
      for (let lon = -179.5; lon < 180; lon += 1) {
        const name = tzlookup(lat, lon);
        if (!known.has(name)) unknown.add(name);
      }
    }
    expect([...unknown]).toEqual([]);
  });
});

describe('canonicalTimezone', () => {
  it('keeps known names and fixes their letter case', () => {
    expect(canonicalTimezone('Europe/Lisbon')).toBe('Europe/Lisbon');
    expect(canonicalTimezone(' europe/lisbon ')).toBe('Europe/Lisbon');
    expect(canonicalTimezone('asia/kolkata')).toBe('Asia/Kolkata');
    expect(canonicalTimezone('utc')).toBe('UTC');
  });

  it('resolves an alias to a known zone', () => {
    expect(canonicalTimezone('US/Eastern')).toBe('America/New_York');
  });

  it('refuses what is not a zone, offsets included', () => {
    for (const bad of ['Europe/Lisbn', '+01:00', 'GMT+1', 'Lisbon', '', '../etc', 'Europe/Lisbon/x/y'])
      expect(canonicalTimezone(bad), bad).toBeNull();
  });
});

describe('timezoneSuggestions', () => {
  it('suggests zones by city and by spelling', () => {
    expect(timezoneSuggestions('Lisbon')).toEqual(['Europe/Lisbon']);
    expect(timezoneSuggestions('new york')).toEqual(['America/New_York']);
    expect(timezoneSuggestions('Europe/Lisbn')).toContain('Europe/Lisbon');
    expect(timezoneSuggestions('Europe/Madird')[0]).toBe('Europe/Madrid');
    expect(timezoneSuggestions('qqqqqqqqqq')).toEqual([]);
  });
});

describe('SELECTABLE_TIMEZONES', () => {
  it('lists current names once, each accepted as it is', () => {
    expect(SELECTABLE_TIMEZONES).toContain('Asia/Kolkata');
    expect(SELECTABLE_TIMEZONES).toContain('Europe/Kyiv');
    expect(SELECTABLE_TIMEZONES).toContain('UTC');
    expect(SELECTABLE_TIMEZONES).not.toContain('Asia/Calcutta');
    expect(SELECTABLE_TIMEZONES.filter((zone) => zone.startsWith('Etc/'))).toEqual([]);
    for (const zone of SELECTABLE_TIMEZONES) expect(canonicalTimezone(zone)).toBe(zone);
  });
});

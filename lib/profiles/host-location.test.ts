import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCleanText } from '../core/text-rule';
import { canonicalTimezone } from '../geo/timezone';
import {
  hostLocationForSignup,
  hostLocationFrom,
  hostLocationLabel,
  withHostTimezone,
  type HostLocation,
} from './host-location';

describe('hostLocationFrom', () => {
  it('keeps the coarse part of a full hint, and never its coordinates', () => {
    expect(
      hostLocationFrom({
        city: 'Lisbon',
        region: 'Lisbon',
        country: 'PT',
        timezone: 'Europe/Lisbon',
        latitude: 38.72,
        longitude: -9.14,
      }),
    ).toEqual({ city: 'Lisbon', region: 'Lisbon', country: 'PT', timezone: 'Europe/Lisbon' });
  });

  it('takes a partial hint as it is', () => {
    expect(hostLocationFrom({ timezone: 'europe/lisbon' })).toEqual({ timezone: 'Europe/Lisbon' });
    expect(hostLocationFrom({ country: 'PT' })).toEqual({ country: 'PT' });
    expect(hostLocationFrom({ city: '  São   Paulo ' })).toEqual({ city: 'São Paulo' });
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'Lisbon, PT'],
    ['a number', 42],
    ['an array', ['Lisbon', 'PT']],
    ['an array with keys', Object.assign(['x'], { city: 'Lisbon' })],
    ['an empty object', {}],
    ['only coordinates', { latitude: 38.72, longitude: -9.14 }],
    ['only unknown keys', { town: 'Lisbon', zone: 'Europe/Lisbon' }],
    ['names that are not strings', { city: 1, region: true, country: ['PT'], timezone: { name: 'Europe/Lisbon' } }],
    ['empty and blank names', { city: '', region: '   ', country: '\t' }],
    ['a huge city', { city: 'x'.repeat(1_000_000) }],
    ['a city just over the limit', { city: 'x'.repeat(81) }],
    ['control characters', { city: 'Lis\u0000bon', country: 'P\u001bT' }],
    ['a lone surrogate', { city: 'Lisbon\uD800' }],
    ['an unknown zone', { timezone: 'Mars/Olympus_Mons' }],
    ['an offset for a zone', { timezone: '+01:00' }],
    ['a huge zone', { timezone: `Europe/${'x'.repeat(10_000)}` }],
    ['inherited keys only', Object.create({ city: 'Lisbon', timezone: 'Europe/Lisbon' })],
  ])('ignores %s', (_name, value) => {
    expect(hostLocationFrom(value)).toBeUndefined();
  });

  it('drops the bad parts of a hint and keeps the good ones', () => {
    expect(hostLocationFrom({ city: 'Lisbon', country: 7, timezone: 'Nowhere/Else', extra: { a: 1 } })).toEqual({
      city: 'Lisbon',
    });
  });

  it('never throws, and keeps only bounded clean names and known zones, whatever the host sends', () => {
    const part = fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue({ maxDepth: 2 }));
    const hint = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        { city: part, region: part, country: part, timezone: part, latitude: part, longitude: part },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(hint, (value) => {
        const found = hostLocationFrom(value);
        if (found === undefined) return;
        expect(Object.keys(found).length).toBeGreaterThan(0);
        for (const [key, text] of Object.entries(found)) {
          expect(['city', 'region', 'country', 'timezone']).toContain(key);
          expect(typeof text).toBe('string');
          expect(text.length).toBeGreaterThan(0);
          expect(text.length).toBeLessThanOrEqual(80);
          expect(isCleanText(text)).toBe(true);
        }
        if (found.timezone !== undefined) expect(canonicalTimezone(found.timezone)).toBe(found.timezone);
        const label = hostLocationLabel(found);
        if (label !== undefined) expect(label.length).toBeLessThanOrEqual(120);
      }),
      { seed: 47, numRuns: 2000 },
    );
  });

  it('reads a JSON "__proto__" key as data, not as a prototype', () => {
    expect(hostLocationFrom(JSON.parse('{"__proto__": {"city": "Lisbon"}, "country": "PT"}'))).toEqual({
      country: 'PT',
    });
  });
});

describe('hostLocationLabel', () => {
  it('qualifies the city by region and country, as a person would type it', () => {
    expect(hostLocationLabel({ city: 'Springfield', region: 'IL', country: 'US' })).toBe('Springfield, IL, US');
    expect(hostLocationLabel({ city: 'Lisbon', country: 'PT' })).toBe('Lisbon, PT');
    expect(hostLocationLabel({ city: 'Lisbon', region: 'lisbon', country: 'PT' })).toBe('Lisbon, PT');
  });

  it('names no place without a city', () => {
    expect(hostLocationLabel({ region: 'Lisbon', country: 'PT', timezone: 'Europe/Lisbon' })).toBeUndefined();
    expect(hostLocationLabel(undefined)).toBeUndefined();
  });

  it('stays within the location limit, leaving out the region first', () => {
    const city = 'c'.repeat(60);
    expect(hostLocationLabel({ city, region: 'r'.repeat(60), country: 'PT' })).toBe(`${city}, PT`);
    expect(hostLocationLabel({ city: 'c'.repeat(80), country: 'p'.repeat(80) })).toBeUndefined();
  });
});

describe('hostLocationForSignup', () => {
  const host: HostLocation = { city: 'Lisbon', country: 'PT', timezone: 'Europe/Lisbon' };

  it('fills the location of a signup that gives no place, with a note naming the host', () => {
    const filled = hostLocationForSignup({}, host);
    expect(filled?.location).toBe('Lisbon, PT');
    expect(filled?.note).toMatch(/^location: /);
    expect(filled?.note).toContain("assistant's host");
    expect(filled?.note).toContain('can change it');
  });

  it('treats null as no place, as registration does', () => {
    expect(hostLocationForSignup({ location: null, city: null, coords: null }, host)?.location).toBe('Lisbon, PT');
  });

  it.each([
    ['a location', { location: 'Porto' }],
    ['the deprecated city', { city: 'Porto' }],
    ['coords', { coords: { latitude: 41.15, longitude: -8.61 } }],
  ])('leaves a signup that gives %s alone', (_name, input) => {
    expect(hostLocationForSignup(input, host)).toBeUndefined();
  });

  it('does nothing without a hint or a city in it', () => {
    expect(hostLocationForSignup({}, undefined)).toBeUndefined();
    expect(hostLocationForSignup({}, { country: 'PT', timezone: 'Europe/Lisbon' })).toBeUndefined();
  });
});

describe('withHostTimezone', () => {
  const host: HostLocation = { timezone: 'Europe/Lisbon' };

  it("fills a zone nothing else set, as following the location (not the person's choice), with a note", () => {
    const warnings: { normalized?: string[] } = { normalized: ['earlier note'] };
    expect(withHostTimezone({ timezone: null, timezone_source: null }, host, warnings)).toEqual({
      timezone: 'Europe/Lisbon',
      timezone_source: 'coords',
    });
    expect(warnings.normalized).toHaveLength(2);
    expect(warnings.normalized?.[1]).toMatch(/^timezone: .*assistant's host.*can change it/);
  });

  it("keeps the person's zone and the one their place gives", () => {
    for (const zone of [
      { timezone: 'Europe/Berlin', timezone_source: 'person' as const },
      { timezone: 'Europe/Lisbon', timezone_source: 'coords' as const },
    ]) {
      const warnings = {};
      expect(withHostTimezone(zone, host, warnings)).toBe(zone);
      expect(warnings).toEqual({});
    }
  });

  it('leaves no zone without a hinted one', () => {
    const warnings = {};
    expect(withHostTimezone({ timezone: null, timezone_source: null }, { city: 'Lisbon' }, warnings)).toEqual({
      timezone: null,
      timezone_source: null,
    });
    expect(warnings).toEqual({});
  });
});

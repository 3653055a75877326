import { beforeAll, describe, expect, it } from 'vitest';
import { preloadGazetteer } from '@/lib/geo';
import type { EventDraft } from './draft';
import { activitiesForEvent, activitiesInText, cityInLocation, placeForEvent } from './enrich';

// The offline gazetteer behind placeForEvent loads once, as setup (it can take over 5 s under load).
beforeAll(() => expect(preloadGazetteer()).toBe(true), 60_000);

function draft(overrides: Partial<EventDraft>): EventDraft {
  return {
    uid: 'x',
    seriesUid: 'x',
    title: 'Untitled',
    description: null,
    start: new Date('2026-03-04T18:00:00Z'),
    end: new Date('2026-03-04T20:00:00Z'),
    allDay: false,
    timezone: null,
    localDate: '2026-03-04',
    location: null,
    venueName: null,
    venueAddress: null,
    city: null,
    region: null,
    country: null,
    coords: null,
    categories: [],
    activities: [],
    url: null,
    ...overrides,
  };
}

describe('activitiesInText', () => {
  it.each([
    ['Weekly bouldering meetup', ['rock_climbing']],
    ['Saturday morning hike in Forest Park', ['hiking']],
    ['Board game night', ['board_games']],
    ['Sunset yoga in the park', ['yoga']],
    ['Run club: 5k social run', ['running']],
    ['Salsa dancing for beginners', ['dancing']],
    ['Pub quiz', ['trivia']],
    ['Tech meetup', []],
  ])('finds the activities named in %j', (text, ids) => {
    expect(activitiesInText(text)).toEqual(ids);
  });
});

describe('activitiesForEvent', () => {
  it('combines explicit activities, categories and the title', () => {
    expect(
      activitiesForEvent(
        draft({ title: 'Photography walk', categories: ['Hiking & camping'], activities: ['board games'] }),
      ),
    ).toEqual(['board_games', 'hiking', 'camping', 'photography', 'walking']);
  });

  it('reads the description only when nothing else names an activity', () => {
    const description = 'Bring a mat, then we go for a short walk.';
    expect(activitiesForEvent(draft({ title: 'Sunday session', description }))).toEqual(['walking']);
    expect(activitiesForEvent(draft({ title: 'Sunday yoga', description }))).toEqual(['yoga']);
  });
});

describe('cityInLocation', () => {
  it.each([
    ['Boulder Hall, Revaler Str. 99, 10245 Berlin, Germany', 'Berlin', 'DE', 2],
    ["Powell's Books, 1005 W Burnside St, Portland, OR 97209, USA", 'Portland', 'US', 2],
    ['Golden Gate Park, San Francisco', 'San Francisco', 'US', 1],
    ['Madison Square Garden, New York', 'New York City', 'US', 1],
    ['München', 'Munich', 'DE', 0],
  ])('finds the city in %j', (location, name, country, partIndex) => {
    const found = cityInLocation(location);
    expect(found?.place.name).toBe(name);
    expect(found?.place.country).toBe(country);
    expect(found?.partIndex).toBe(partIndex);
  });

  it.each(['Online', 'Zoom call', ''])('finds no city in %j', (location) => {
    expect(cityInLocation(location)).toBeNull();
  });
});

describe('placeForEvent', () => {
  it('splits venue and address from the location and geocodes the city', () => {
    const place = placeForEvent(draft({ location: 'Lower Macleay Trailhead, NW Upshur St, Portland, OR, USA' }));
    expect(place).toMatchObject({
      venueName: 'Lower Macleay Trailhead',
      venueAddress: 'NW Upshur St, Portland, OR, USA',
      city: 'Portland',
      region: 'Oregon',
      country: 'US',
    });
    expect(place.coords?.latitude).toBeCloseTo(45.52, 1);
  });

  it('keeps GEO coordinates and names the city near them when the location has none', () => {
    const place = placeForEvent(
      draft({ location: 'Tempelhofer Feld', coords: { latitude: 52.4731, longitude: 13.4039 } }),
    );
    expect(place).toMatchObject({
      venueName: 'Tempelhofer Feld',
      city: 'Berlin',
      country: 'DE',
      coords: { latitude: 52.4731, longitude: 13.4039 },
    });
  });

  it('ignores a named city far from the GEO coordinates', () => {
    const place = placeForEvent(
      draft({ location: 'Town Hall, Paris', coords: { latitude: 33.66, longitude: -95.55 } }),
    );
    expect(place.city).toBe('Paris');
    expect(place.region).toBe('Texas');
  });

  it('falls back to the default city for a venue-only location', () => {
    const place = placeForEvent(draft({ location: 'Community Hall' }), 'Leeds, UK');
    expect(place).toMatchObject({ venueName: 'Community Hall', venueAddress: null, city: 'Leeds', country: 'GB' });
  });

  it('prefers what a JSON feed states', () => {
    const place = placeForEvent(draft({ venueName: 'Hall 3', city: 'Köln', country: 'Germany' }));
    expect(place).toMatchObject({ venueName: 'Hall 3', city: 'Köln', country: 'DE' });
    expect(place.coords?.longitude).toBeCloseTo(6.95, 1);
  });
});

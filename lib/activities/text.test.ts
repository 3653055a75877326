import { describe, expect, it } from 'vitest';
import {
  candidatePhrases,
  isIgnorablePart,
  keyVariants,
  normalizeText,
  splitEntry,
  stemPhrase,
  stemWord,
} from './text';

describe('normalizeText', () => {
  it.each([
    ['  Rock   Climbing ', 'rock climbing'],
    ['Hiking & Camping!', 'hiking and camping'],
    ['🥾 hiking 🏔️', 'hiking'],
    ['Café', 'cafe'],
    ["farmer's market", 'farmers market'],
    ['rock-climbing', 'rock climbing'],
    ['5K', '5k'],
    ['!!!', ''],
    ['登山', ''],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });
});

describe('stemWord', () => {
  it.each([
    ['hiking', 'hik'],
    ['hike', 'hik'],
    ['hikes', 'hik'],
    ['running', 'run'],
    ['run', 'run'],
    ['swimming', 'swim'],
    ['jogging', 'jog'],
    ['parties', 'parti'],
    ['party', 'parti'],
    ['partying', 'parti'],
    ['movies', 'movi'],
    ['movie', 'movi'],
    ['dancing', 'danc'],
    ['dance', 'danc'],
    ['classes', 'class'],
    ['chess', 'chess'],
    ['bowling', 'bowl'],
    ['skiing', 'ski'],
    ['sing', 'sing'],
    ['singing', 'sing'],
    ['plays', 'play'],
    ['5k', '5k'],
    // A doubled k is a typo, not an -ing form: it must not silently match "hiking".
    ['hikking', 'hikk'],
    ['trekking', 'trekk'], // hence "trekking" is listed as an alias of its own
  ])('%j -> %j', (word, stem) => {
    expect(stemWord(word)).toBe(stem);
  });

  it('stems every word of a phrase', () => {
    expect(stemPhrase('board games')).toBe('board gam');
    expect(stemPhrase('board gaming')).toBe('board gam');
  });
});

describe('keyVariants', () => {
  it('lists literal, stemmed and space-free forms without duplicates', () => {
    expect(keyVariants('board games')).toEqual(['board games', 'board gam', 'boardgames', 'boardgam']);
    expect(keyVariants('yoga')).toEqual(['yoga']);
  });
});

describe('candidatePhrases', () => {
  it.each([
    ['hiking', ['hiking']],
    ['going hiking', ['going hiking', 'hiking']],
    ['hiking with friends', ['hiking with friends', 'hiking']],
    ['i like going hiking', ['i like going hiking', 'like going hiking', 'going hiking', 'hiking']],
    ['going to the gym', ['going to the gym', 'to the gym', 'the gym', 'gym']],
    ['a lot of yoga', ['a lot of yoga', 'yoga']],
  ])('%j -> %j', (key, expected) => {
    expect(candidatePhrases(key)).toEqual(expected);
  });

  it('never peels a phrase down to nothing', () => {
    expect(candidatePhrases('going')).toEqual(['going']);
    expect(candidatePhrases('the club')).toEqual(['the club', 'the', 'club']);
    expect(candidatePhrases('')).toEqual([]);
  });
});

describe('splitEntry', () => {
  it.each([
    ['hiking and camping', ['hiking', 'camping']],
    ['Hiking & Camping', ['Hiking', 'Camping']],
    ['tennis, squash; badminton', ['tennis', 'squash', 'badminton']],
    ['yoga/pilates', ['yoga', 'pilates']],
    ['running or cycling', ['running', 'cycling']],
    ['sandwiches', ['sandwiches']],
    ['orienteering', ['orienteering']],
    ['hiking,, ,camping', ['hiking', 'camping']],
  ])('%j -> %j', (raw, parts) => {
    expect(splitEntry(raw)).toEqual(parts);
  });
});

describe('isIgnorablePart', () => {
  it.each([
    ['etc', true],
    ['stuff', true],
    ['more', true],
    ['', true],
    ['hiking', false],
    ['xyzzy', false],
  ])('%j -> %s', (key, expected) => {
    expect(isIgnorablePart(key)).toBe(expected);
  });
});

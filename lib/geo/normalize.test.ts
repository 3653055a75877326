import { describe, expect, it } from 'vitest';
import { nameKey, normalizeText, splitParts } from './normalize';

describe('normalizeText', () => {
  it.each([
    ['São Paulo', 'sao paulo'],
    ['ZÜRICH', 'zurich'],
    ['København', 'kobenhavn'],
    ['Łódź', 'lodz'],
    ['Winston-Salem', 'winston salem'],
    ['D.C.', 'dc'],
    ["St. John's", 'st johns'],
    ['  New   York  ', 'new york'],
    ['Москва', 'москва'],
  ])('%s -> %s', (input, expected) => expect(normalizeText(input)).toBe(expected));
});

describe('nameKey', () => {
  it('folds common abbreviations and a leading article', () => {
    expect(nameKey('St. Louis')).toBe(nameKey('Saint Louis'));
    expect(nameKey('Mt Vernon')).toBe(nameKey('Mount Vernon'));
    expect(nameKey('Ft. Worth')).toBe(nameKey('Fort Worth'));
    expect(nameKey('The Bronx')).toBe(nameKey('Bronx'));
    expect(nameKey('The')).toBe('the');
  });
});

describe('splitParts', () => {
  it.each([
    ['Portland, OR', ['Portland', 'OR']],
    ['Berlin (Germany)', ['Berlin', 'Germany']],
    ['Austin - TX', ['Austin', 'TX']],
    ['Winston-Salem / NC', ['Winston-Salem', 'NC']],
    [' , ,', []],
  ])('%j', (input, expected) => expect(splitParts(input)).toEqual(expected));
});

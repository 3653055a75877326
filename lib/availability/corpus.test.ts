// Issue 36 corpus: phrasings people write, each with the grid they meant. The data lives with the
// tests (e2e/support/availability), outside the production tree.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, OWN_CORPUS } from '@/e2e/support/availability/corpus.data';
import { week } from '@/e2e/support/availability/corpus-helpers';
import { gridToBits } from './grid';
import { parseAvailabilityText } from './parse';
import { summarizeGrid } from './summary';

const ALL = [...CORPUS, ...OWN_CORPUS];

describe('availability corpus', () => {
  it('is large enough and mostly cited where it claims to be', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(300);
    expect(new Set(ALL.map((e) => e.text)).size).toBe(ALL.length);
    for (const e of ALL) if (e.source) expect(e.source).toMatch(/^https?:\/\//);
  });

  it('is the size the design notes say, with as many cited entries', () => {
    const notes = fs.readFileSync(path.join(import.meta.dirname, '../../docs/decisions/agents-surfaces.md'), 'utf8');
    const stated = /a (\d+)-phrasing corpus \((\d+) quoted from public pages/.exec(notes);
    expect(stated, 'docs/decisions/agents-surfaces.md states the corpus size').not.toBeNull();
    expect([Number(stated![1]), Number(stated![2])]).toEqual([ALL.length, ALL.filter((e) => e.source).length]);
  });

  // Main's regex cascade misread 36 of the 312; the first grammar 12; this one none.
  it.each(ALL.map((e) => [e.text, e.expected] as const))('%s', (text, expected) => {
    const { grid } = parseAvailabilityText(text);
    // Compare summaries first: a failure then reads as what was meant vs what was stored.
    expect(summarizeGrid(grid)).toBe(summarizeGrid(week(expected)));
    expect(gridToBits(grid)).toBe(gridToBits(week(expected)));
  });
});

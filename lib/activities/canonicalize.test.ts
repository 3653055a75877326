import { describe, expect, it } from 'vitest';
import { AMBIGUOUS_TERMS } from './catalog';
import { canonicalizeActivities, MAX_SUGGESTED_ENTRIES, matchActivity, suggestActivities } from './canonicalize';

/** Canonicalizes one entry and returns only the ids. */
const idsOf = (...inputs: string[]): string[] => canonicalizeActivities(inputs).ids;

describe('canonicalizeActivities: matching', () => {
  it.each([
    ['hiking', 'hiking'],
    ['rock_climbing', 'rock_climbing'],
    ['board_games', 'board_games'],
    ['Rock Climbing', 'rock_climbing'],
    ['Live Music', 'live_music'],
    ['language exchange', 'language_exchange'],
  ])('exact id or name %j -> %s', (input, id) => {
    expect(idsOf(input)).toEqual([id]);
  });

  it.each([
    ['bouldering', 'rock_climbing'],
    ['climbing', 'rock_climbing'],
    ['climbing gym', 'rock_climbing'],
    ['weightlifting', 'gym'],
    ['working out', 'gym'],
    ['fitness', 'gym'],
    ['jogging', 'running'],
    ['5k', 'running'],
    ['marathon training', 'running'],
    ['ping pong', 'table_tennis'],
    ['mtb', 'mountain_biking'],
    ['football', 'soccer'],
    ['concerts', 'live_music'],
    ['D&D', 'tabletop_rpgs'],
    ['dungeons and dragons', 'tabletop_rpgs'],
    ['pub quiz', 'trivia'],
    ['cafe', 'coffee'],
    ['spanish', 'language_exchange'],
  ])('alias %j -> %s', (input, id) => {
    expect(idsOf(input)).toEqual([id]);
  });

  it.each([
    ['going to the gym', 'gym'],
    ['go to the gym', 'gym'],
    ['hit the gym', 'gym'],
    ['playing tennis', 'tennis'],
    ['play board games', 'board_games'],
    ['doing yoga', 'yoga'],
    ['some yoga', 'yoga'],
    ['going hiking', 'hiking'],
    ['I like hiking', 'hiking'],
    ['love bouldering', 'rock_climbing'],
    ['I really love going hiking with friends', 'hiking'],
    ['casual tennis', 'tennis'],
    ['tennis partner', 'tennis'],
    ['yoga classes', 'yoga'],
    ['running buddy', 'running'],
    ['learning spanish', 'language_exchange'],
  ])('strips verbs and fillers: %j -> %s', (input, id) => {
    expect(idsOf(input)).toEqual([id]);
  });

  it.each([
    // Fillers are only peeled after the whole phrase failed, so aliases that contain them still win.
    ['go karting', 'go_karting'],
    ['the pool', 'swimming'],
    ['go to the pool', 'swimming'],
    ['pool', 'billiards'],
    ['playing pool', 'billiards'],
    ['play dates', 'playdates'],
  ])('keeps filler words that are part of an alias: %j -> %s', (input, id) => {
    expect(idsOf(input)).toEqual([id]);
  });

  it.each([
    ['hikes', 'hiking'],
    ['hike', 'hiking'],
    ['runs', 'running'],
    ['run', 'running'],
    ['swim', 'swimming'],
    ['museum', 'museums'],
    ['board game', 'board_games'],
    ['board gaming', 'board_games'],
    ['boardgames', 'board_games'],
    ['video game', 'video_games'],
    ['dance', 'dancing'],
    ['dancing', 'dancing'],
    ['picnic', 'picnics'],
    ['party', 'clubbing'],
    ['dinner parties', 'dinner_parties'],
    ['snowboard', 'snowboarding'],
    ['kayak', 'kayaking'],
    ['weekend hikes', 'hiking'],
    ['bike rides', 'road_cycling'],
    ['mountainbiking', 'mountain_biking'],
  ])('stems plurals and -ing forms: %j -> %s', (input, id) => {
    expect(idsOf(input)).toEqual([id]);
  });

  it.each([
    ['hiking and camping', ['hiking', 'camping']],
    ['Hiking & Camping!', ['hiking', 'camping']],
    ['tennis, squash, badminton', ['tennis', 'squash', 'badminton']],
    ['yoga/pilates', ['yoga', 'pilates']],
    ['running or cycling', ['running', 'road_cycling']],
    ['I like hiking, biking and board games', ['hiking', 'road_cycling', 'board_games']],
    ['hiking, biking, etc.', ['hiking', 'road_cycling']],
    // Whole-phrase aliases are tried before splitting.
    ['pitch and putt', ['golf']],
    ['bow and arrow', ['archery']],
  ])('splits %j', (input, ids) => {
    // A split is a reading of the caller's words: readAs says what it became.
    expect(canonicalizeActivities([input])).toEqual({
      ids,
      unmatched: [],
      suggestions: {},
      readAs: [{ entry: input, ids }],
    });
  });

  it.each(['arts and crafts', 'Arts & Crafts'])('reads %j as crafts, its own name (no note)', (input) => {
    expect(canonicalizeActivities([input])).toEqual({ ids: ['crafts'], unmatched: [], suggestions: {}, readAs: [] });
  });

  it("reports the unmatched part of a split entry in the caller's words", () => {
    expect(canonicalizeActivities(['Hiking and Xyzzq'])).toEqual({
      ids: ['hiking'],
      unmatched: ['Xyzzq'],
      suggestions: {},
      readAs: [{ entry: 'Hiking and Xyzzq', ids: ['hiking'] }],
    });
    const result = canonicalizeActivities(['camping & hikking']);
    expect(result.ids).toEqual(['camping']);
    expect(result.unmatched).toEqual(['hikking']);
    expect(result.suggestions.hikking?.[0]).toBe('hiking');
  });

  it('de-duplicates ids and keeps input order', () => {
    const result = canonicalizeActivities([
      'tennis',
      'Hiking',
      'hikes',
      'TENNIS',
      'bouldering',
      'climbing',
      'hiking and tennis',
    ]);
    expect(result).toEqual({
      ids: ['tennis', 'hiking', 'rock_climbing'],
      unmatched: [],
      suggestions: {},
      // An activity's own id or name, in any case, is no reading; an alias, a form or a split is.
      readAs: [
        { entry: 'hikes', ids: ['hiking'] },
        { entry: 'bouldering', ids: ['rock_climbing'] },
        { entry: 'climbing', ids: ['rock_climbing'] },
        { entry: 'hiking and tennis', ids: ['hiking', 'tennis'] },
      ],
    });
  });

  it('de-duplicates unmatched entries', () => {
    expect(canonicalizeActivities(['zzqqx', 'zzqqx']).unmatched).toEqual(['zzqqx']);
  });

  it.each([
    ['  HIKING  ', 'hiking'],
    ['Hiking!!!', 'hiking'],
    ['🥾 hiking 🏔️', 'hiking'],
    ['🎾 Tennis', 'tennis'],
    ['rock-climbing', 'rock_climbing'],
    ['Rock   Climbing.', 'rock_climbing'],
    ['"yoga"', 'yoga'],
    ['Café hopping', 'coffee'],
    ["farmer's market", 'farmers_markets'],
    ['board-games', 'board_games'],
    ['go-karting', 'go_karting'],
    ['Cross-Country Skiing', 'cross_country_skiing'],
  ])('ignores case, punctuation and emoji: %j -> %s', (input, id) => {
    expect(idsOf(input)).toEqual([id]);
  });
});

describe('canonicalizeActivities: unmatched and suggestions', () => {
  it.each([
    ['hikking', 'hiking'],
    ['tenis', 'tennis'],
    ['yogaa', 'yoga'],
    ['climing', 'rock_climbing'],
    ['swimmming', 'swimming'],
    ['pickelball', 'pickleball'],
    ['badmington', 'badminton'],
    ['snowbaording', 'snowboarding'],
    ['photografy', 'photography'],
    ['meditaton', 'meditation'],
    ['yoag', 'yoga'],
    ['bouldring', 'rock_climbing'],
    ['mountian biking', 'mountain_biking'],
    ['ice skatin', 'ice_skating'],
    ['running shoes', 'running'],
  ])('typo %j is unmatched with %s as the first suggestion', (input, first) => {
    const result = canonicalizeActivities([input]);
    expect(result.ids).toEqual([]);
    expect(result.unmatched).toEqual([input]);
    expect(result.suggestions[input]?.[0]).toBe(first);
    expect(result.suggestions[input]?.length).toBeLessThanOrEqual(3);
  });

  it.each(['qwertyuiop', 'xyzzy', 'asdfgh', 'zzqqx vbnm', 'blorptastic', '🤷', '!!!', '登山'])(
    'nonsense %j is unmatched without a suggestions key',
    (input) => {
      expect(canonicalizeActivities([input])).toEqual({ ids: [], unmatched: [input], suggestions: {}, readAs: [] });
    },
  );

  it.each(AMBIGUOUS_TERMS.map((term) => [term]))('ambiguous %j is unmatched rather than guessed', (term) => {
    const result = canonicalizeActivities([term]);
    expect(result.ids).toEqual([]);
    expect(result.unmatched).toEqual([term]);
  });

  it('suggests the likely activities for an ambiguous word', () => {
    expect(canonicalizeActivities(['skating']).suggestions.skating).toEqual(
      expect.arrayContaining(['ice_skating', 'roller_skating']),
    );
    expect(canonicalizeActivities(['games']).suggestions.games).toEqual(
      expect.arrayContaining(['board_games', 'video_games']),
    );
  });

  it("keeps the caller's original text as the unmatched key", () => {
    const result = canonicalizeActivities(['  Tenis!! ']);
    expect(result.unmatched).toEqual(['  Tenis!! ']);
    expect(result.suggestions['  Tenis!! ']?.[0]).toBe('tennis');
  });

  it('mixes matched and unmatched entries', () => {
    const result = canonicalizeActivities(['hiking', 'tenis', 'qwertyuiop', 'board games']);
    expect(result.ids).toEqual(['hiking', 'board_games']);
    expect(result.unmatched).toEqual(['tenis', 'qwertyuiop']);
    expect(Object.keys(result.suggestions)).toEqual(['tenis']);
  });

  it('suggests for each part when nothing in a split entry matched', () => {
    const result = canonicalizeActivities(['hikking and campng']);
    expect(result.unmatched).toEqual(['hikking and campng']);
    expect(result.suggestions['hikking and campng']?.slice(0, 2)).toEqual(['hiking', 'camping']);
  });
});

describe('canonicalizeActivities: robustness', () => {
  it.each([[[]], [['']], [['   ', '\n\t']]])('returns an empty result for %j', (inputs) => {
    expect(canonicalizeActivities(inputs)).toEqual({ ids: [], unmatched: [], suggestions: {}, readAs: [] });
  });

  it('never throws on malformed input from JSON callers', () => {
    const junk = [null, undefined, 42, {}, ['hiking'], 'yoga'] as unknown as string[];
    expect(canonicalizeActivities(junk)).toEqual({ ids: ['yoga'], unmatched: [], suggestions: {}, readAs: [] });
    const nothing = { ids: [], unmatched: [], suggestions: {}, readAs: [] };
    expect(canonicalizeActivities(null as unknown as string[])).toEqual(nothing);
    expect(canonicalizeActivities('hiking' as unknown as string[])).toEqual(nothing);
  });

  it('treats prototype-like names as plain text', () => {
    const result = canonicalizeActivities(['__proto__', 'constructor', 'toString']);
    expect(result.ids).toEqual([]);
    expect(Object.getPrototypeOf(result.suggestions)).toBe(Object.prototype);
    for (const key of Object.keys(result.suggestions)) expect(Array.isArray(result.suggestions[key])).toBe(true);
  });

  it('copes with very long input quickly', () => {
    const long = `${'blah '.repeat(2000)}hiking`;
    const started = performance.now();
    const result = canonicalizeActivities([long, 'x'.repeat(10_000)]);
    expect(result.ids).toEqual([]);
    expect(result.unmatched).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('does not mutate its input', () => {
    const inputs = Object.freeze(['Hiking', 'tenis']);
    canonicalizeActivities(inputs);
    expect(inputs).toEqual(['Hiking', 'tenis']);
  });
});

describe('matchActivity', () => {
  it.each([
    ['hiking', 'hiking'],
    ['going to the gym', 'gym'],
    ['hiking and camping', undefined],
    ['tenis', undefined],
    ['', undefined],
  ])('%j -> %s', (input, id) => {
    expect(matchActivity(input)).toBe(id);
  });
});

describe('suggestActivities', () => {
  it('puts an exact match first', () => {
    expect(suggestActivities('tennis')[0]).toBe('tennis');
    expect(suggestActivities('going hiking')[0]).toBe('hiking');
  });

  it.each([
    ['tenis', 1, ['tennis']],
    ['tenis', 0, []],
    ['tenis', -2, []],
    ['', 3, []],
    ['qwertyuiop', 3, []],
  ])('suggestActivities(%j, %i) -> %j', (text, limit, expected) => {
    expect(suggestActivities(text, limit)).toEqual(expected);
  });

  it('returns at most 3 distinct known ids by default', () => {
    for (const text of ['skating', 'games', 'tenis', 'ball', 'water sports']) {
      const ids = suggestActivities(text);
      expect(ids.length).toBeLessThanOrEqual(3);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('honours larger limits', () => {
    expect(suggestActivities('skating', 5).length).toBeGreaterThan(3);
  });
});

describe('canonicalizeActivities cost (issue 28)', () => {
  it('suggests for the first MAX_SUGGESTED_ENTRIES unmatched entries only, and stays fast', () => {
    const entries = Array.from({ length: 20 }, (_, i) => `zq${i} ${'hikin skatin '.repeat(7)}`.slice(0, 100));
    const started = performance.now();
    const result = canonicalizeActivities(entries);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.unmatched).toHaveLength(20);
    expect(Object.keys(result.suggestions)).toEqual(entries.slice(0, MAX_SUGGESTED_ENTRIES));
  });
});

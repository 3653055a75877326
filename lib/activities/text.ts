// Text helpers shared by the alias index and the query side. Both sides must go
// through the same functions so that keys line up. Everything here is pure.

/** Lower-case, accent-free ascii words separated by single spaces ("" if nothing is left). */
export function normalizeText(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/&/g, ' and ')
      // Apostrophes vanish so "farmer's" == "farmers" and "d'n'd" stays one word.
      .replace(/['’‘`´ʼ]/g, '')
      // Emoji, punctuation, hyphens and non-latin scripts all become separators.
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
  );
}

export function tokenize(key: string): string[] {
  return key.length === 0 ? [] : key.split(' ');
}

const HAS_VOWEL = /[aeiouy]/;

/**
 * A deliberately tiny stemmer: it only has to make "hike"/"hikes"/"hiking",
 * "party"/"parties"/"partying" and "run"/"running" meet. Both aliases and input
 * are stemmed, so odd stems ("tennis" -> "tenni") are harmless.
 */
export function stemWord(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let stem = word;
  if (stem.endsWith('ies') && stem.length > 4) stem = stem.slice(0, -2);
  else if (stem.endsWith('ing') && HAS_VOWEL.test(stem.slice(0, -3))) stem = undouble(stem.slice(0, -3));
  else if (stem.endsWith('s') && !stem.endsWith('ss')) stem = stem.slice(0, -1);
  if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  if (/[^aeiou]y$/.test(stem) && stem.length > 2) stem = `${stem.slice(0, -1)}i`;
  return stem;
}

/**
 * "runn" -> "run", "swimm" -> "swim". Only letters English doubles before "-ing"
 * qualify, so "stuffing" keeps its "ff" and a typo like "hikking" is not silently
 * accepted (it gets a suggestion instead).
 */
function undouble(stem: string): string {
  const last = stem.at(-1);
  return last !== undefined && last === stem.at(-2) && /[bdgmnprt]/.test(last) ? stem.slice(0, -1) : stem;
}

export function stemPhrase(key: string): string {
  return tokenize(key).map(stemWord).join(' ');
}

export function compact(key: string): string {
  return key.replace(/ /g, '');
}

/** Lookup keys for one normalized phrase, most literal first. Space-free forms catch "boardgames". */
export function keyVariants(key: string): string[] {
  const stemmed = stemPhrase(key);
  return [...new Set([key, stemmed, compact(key), compact(stemmed)])].filter((k) => k.length > 0);
}

// Words people wrap around an activity ("I really love going hiking with friends").
// They are peeled off one at a time, so aliases containing them ("go karting",
// "the pool", "playing pool") still win because the longer phrase is tried first.
const LEADING_FILLERS = phraseList([
  'i',
  'im',
  'i am',
  'id',
  'we',
  'me',
  'also',
  'and',
  'or',
  'both',
  'just',
  'mostly',
  'really',
  'very',
  'like',
  'likes',
  'liking',
  'love',
  'loves',
  'loving',
  'enjoy',
  'enjoys',
  'enjoying',
  'into',
  'big',
  'huge',
  'fan of',
  'fan',
  'passionate about',
  'interested in',
  'want to',
  'wanna',
  'would like to',
  'like to',
  'love to',
  'go',
  'goes',
  'going',
  'went',
  'to',
  'play',
  'plays',
  'playing',
  'do',
  'does',
  'doing',
  'hit',
  'hitting',
  'grab',
  'grabbing',
  'get',
  'getting',
  'learn',
  'learning',
  'try',
  'trying',
  'visit',
  'visiting',
  'attend',
  'attending',
  'exploring',
  'some',
  'a',
  'an',
  'the',
  'my',
  'bit of',
  'a bit of',
  'little',
  'lots of',
  'lot of',
  'a lot of',
  'of',
  'more',
  'casual',
  'casually',
  'occasional',
  'occasionally',
  'regular',
  'regularly',
  'weekend',
  'weekends',
  'weekly',
  'daily',
  'morning',
  'evening',
  'recreational',
  'amateur',
  'beginner',
  'beginners',
  'social',
  'sometimes',
  'often',
  'usually',
]);

const TRAILING_FILLERS = phraseList([
  'a lot',
  'lots',
  'sometimes',
  'often',
  'regularly',
  'together',
  'too',
  'as well',
  'etc',
  'and stuff',
  'and more',
  'in general',
  'with friends',
  'with people',
  'with others',
  'with me',
  'with someone',
  'on weekends',
  'on the weekend',
  'at weekends',
  'every weekend',
  'weekends',
  'buddy',
  'buddies',
  'partner',
  'partners',
  'pal',
  'pals',
  'friends',
  'group',
  'groups',
  'club',
  'clubs',
  'class',
  'classes',
  'lesson',
  'lessons',
  'session',
  'sessions',
  'meetup',
  'meetups',
  'night',
  'nights',
  'trip',
  'trips',
  'day',
  'days',
  'outings',
  'activities',
  'events',
  'adventures',
]);

// A split part made only of these carries no activity ("hiking, biking, etc.").
const IGNORABLE_PARTS = new Set([
  '',
  'stuff',
  'things',
  'etc',
  'more',
  'so on',
  'others',
  'other stuff',
  'similar',
  'whatever',
]);

// Longest phrases first so "a lot of" is peeled before "a".
function phraseList(phrases: readonly string[]): readonly (readonly string[])[] {
  return phrases.map(tokenize).sort((a, b) => b.length - a.length);
}

function startsWith(tokens: readonly string[], phrase: readonly string[]): boolean {
  return phrase.length < tokens.length && phrase.every((word, i) => tokens[i] === word);
}

function endsWith(tokens: readonly string[], phrase: readonly string[]): boolean {
  const offset = tokens.length - phrase.length;
  return offset > 0 && phrase.every((word, i) => tokens[offset + i] === word);
}

function peelLeading(tokens: readonly string[]): readonly string[] | undefined {
  const filler = LEADING_FILLERS.find((phrase) => startsWith(tokens, phrase));
  return filler && tokens.slice(filler.length);
}

function peelTrailing(tokens: readonly string[]): readonly string[] | undefined {
  const filler = TRAILING_FILLERS.find((phrase) => endsWith(tokens, phrase));
  return filler && tokens.slice(0, tokens.length - filler.length);
}

// Past this many words the entry is a sentence, not an activity; peeling it is wasted work.
const MAX_PEEL_TOKENS = 12;

/**
 * The phrases worth looking up for one normalized entry, from the literal text to
 * the fully peeled core: "going hiking with friends" -> ..., "hiking with friends", "hiking".
 * Fillers are never peeled down to nothing.
 */
export function candidatePhrases(key: string): string[] {
  const out = new Set<string>();
  let lead: readonly string[] | undefined = tokenize(key);
  if (lead.length > MAX_PEEL_TOKENS) return key ? [key] : [];
  while (lead && lead.length > 0) {
    let tail: readonly string[] | undefined = lead;
    while (tail && tail.length > 0) {
      out.add(tail.join(' '));
      tail = peelTrailing(tail);
    }
    lead = peelLeading(lead);
  }
  return [...out];
}

/** True when a normalized part is only filler and should be dropped silently. */
export function isIgnorablePart(key: string): boolean {
  if (IGNORABLE_PARTS.has(key)) return true;
  const tokens = tokenize(key);
  return tokens.every((t) => LEADING_FILLERS.some((p) => p.length === 1 && p[0] === t) || IGNORABLE_PARTS.has(t));
}

// "and", "or", "&", commas, slashes... Applied to the caller's raw text so that an
// unmatched part can be reported in their own words.
const SPLIT_PATTERN = /\s*(?:[,;/|+&\n]|\band\b|\bor\b|\bplus\b|\bas well as\b)\s*/i;

export function splitEntry(raw: string): string[] {
  return raw
    .split(SPLIT_PATTERN)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

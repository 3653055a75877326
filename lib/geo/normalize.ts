// Text normalisation shared by the index builder and the query parser.
// Both sides must go through the same functions so keys line up.

// Letters that NFKD does not decompose into base letter + combining mark.
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};

// Abbreviations folded to one spelling so "St. Louis" == "Saint Louis".
// Only applied to city names: as a region, "MT" means Montana, not "Mount".
const NAME_TOKEN_CANON: Readonly<Record<string, string>> = {
  st: 'saint',
  ste: 'sainte',
  mt: 'mount',
  ft: 'fort',
};

const NON_ASCII = /[^\x00-\x7f]/;
const NAME_CANON_TOKENS = /(^| )(st|ste|mt|ft)(?= |$)/g;

/** Lower-case, accent-free, punctuation-free, single-spaced text. */
export function normalizeText(text: string): string {
  // Most dataset names are plain ASCII; skipping Unicode folding for them
  // roughly halves the index build time.
  if (!NON_ASCII.test(text)) {
    return text
      .toLowerCase()
      .replace(/['`.]/g, '')
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  }
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[øæœßłđðþıħ]/g, (ch) => SPECIAL_LETTERS[ch] ?? ch)
      // Dots and apostrophes vanish ("D.C." -> "dc", "St. John's" -> "st johns")...
      .replace(/['’ʼ`.]/g, '')
      // ...every other non-alphanumeric run becomes a single space ("Winston-Salem").
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
  );
}

/** Index key for a city name: normalized text plus abbreviation folding. */
export function nameKey(name: string): string {
  return (
    normalizeText(name)
      .replace(NAME_CANON_TOKENS, (_match, sep: string, token: string) => sep + (NAME_TOKEN_CANON[token] ?? token))
      // "The Bronx" / "Bronx", "The Hague" / "Hague".
      .replace(/^the (?=\S)/, '')
  );
}

/** Split a free-text label into its "city, region, country" parts. */
export function splitParts(text: string): string[] {
  return text
    .split(/[,;|/()]|\s+[-–—]\s+/)
    .map((p) => p.trim())
    .filter((p) => normalizeText(p).length > 0);
}

// Text moderation for what agents send to people (SPEC section 7): slurs and
// explicit language, threats of violence, sexual solicitation, shouting and
// repeated-character spam. A refused text is never stored; the caller gets a
// 422 naming the rule. Slurs use the `obscenity` English dataset, which sees
// through look-alike characters and stretched letters ("n1gg3r", "fuuuck") and
// whitelists words that merely contain one ("Scunthorpe", "cocktail"). The
// other rules are explicit patterns, each written to leave everyday figures of
// speech alone ("I'd kill for a coffee", "shoot me a text").
import { englishDataset, englishRecommendedTransformers, RegExpMatcher, DataSet } from 'obscenity';
import { ApiError, ERROR_ADVICE, type ErrorCode } from '../core/errors';

export type ModerationRule = 'profanity' | 'threat' | 'solicitation' | 'shouting' | 'spam';

export type ModerationVerdict = { ok: true } | { ok: false; rule: ModerationRule; code: ErrorCode; reason: string };

const RULE_CODES: Record<ModerationRule, ErrorCode> = {
  profanity: 'message_blocked_profanity',
  threat: 'message_blocked_threat',
  solicitation: 'message_blocked_solicitation',
  shouting: 'message_blocked_shouting',
  spam: 'message_blocked_spam',
};

// ---------------------------------------------------------------------------
// Slurs and explicit language

/**
 * Dataset words with common innocent meanings among activity buddies (a donkey,
 * a bird, rugby's hooker, "same-sex", animal scat on a trail, "food porn",
 * anatomy) or that are mild swearing rather than abuse. Everything else in the
 * dataset (slurs, sexual acts, strong abuse) is refused.
 */
export const ALLOWED_DATASET_WORDS: ReadonlySet<string> = new Set([
  'anal',
  'anus',
  'arse',
  'ass',
  'bastard',
  'bestiality',
  'bollocks',
  'boob',
  'cock',
  'dick',
  'hooker',
  'incest',
  'orgasm',
  'penis',
  'piss',
  'porn',
  'prick',
  'scat',
  'sex',
  'shit',
  'tit',
  'turd',
  'vagina',
]);

const profanityDataset = new DataSet<{ originalWord: string }>()
  .addAll(englishDataset)
  .removePhrasesIf((phrase) => ALLOWED_DATASET_WORDS.has(phrase.metadata?.originalWord ?? ''));

const builtDataset = profanityDataset.build();
const profanityMatcher = new RegExpMatcher({
  ...builtDataset,
  // Latin honours, not slang.
  whitelistedTerms: [...(builtDataset.whitelistedTerms ?? []), 'cum laude', 'summa cum', 'magna cum'],
  ...englishRecommendedTransformers,
});

function findProfanity(text: string): string | null {
  const match = profanityMatcher.getAllMatches(text, true)[0];
  if (!match) return null;
  return `contains a slur or explicit language (characters ${match.startIndex + 1}-${match.endIndex + 1})`;
}

// ---------------------------------------------------------------------------
// Threats of violence

/** Lower case, straight apostrophes, no zero-width characters, single spaces. */
export function normalizeForRules(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u200B-\u200D\u2060\uFEFF]/g, '')
    .replace(/[\u2018\u2019\u02BC`´]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const INTENT =
  "(?:i(?:'ll| will| shall|'m going to|m going to| am going to|'m gonna|m gonna| am gonna| gonna| want to| wanna)|" +
  "we(?:'ll| will|'re going to| are going to|'re gonna| are gonna| gonna))";
// Up to three words between intent and verb ("I will personally come and ..."), captured to check for negation.
const FILLER = "((?:[\\w']+ ){0,3}?)";
const TARGET = "(?:you|u|ya|y'all|your family|her|him|them)";

const INTENT_THREATS: RegExp[] = [
  new RegExp(
    `\\b${INTENT} ${FILLER}(?:kill|murder|stab|strangle|choke|hurt|rape|attack|slap|punch|kick|burn|shoot|smash|bash) ${TARGET}\\b(?!(?: (?:a|an|the|some|my) )?(?:message|msg|text|txt|line|email|mail|note|dm|invite|link|photo|pic|call|ring|reminder)s?\\b)`,
  ),
  // "beat you" alone is usually a game ("I'm going to beat you at tennis").
  new RegExp(`\\b${INTENT} ${FILLER}beat ${TARGET} up\\b`),
  new RegExp(`\\b${INTENT} ${FILLER}beat the (?:shit|crap|hell|life) out of ${TARGET}\\b`),
  new RegExp(`\\b${INTENT} ${FILLER}break your (?:neck|legs?|arms?|face|jaw|nose|bones|skull|fingers)\\b`),
  new RegExp(`\\b${INTENT} ${FILLER}(?:make|see (?:to it )?that) (?:you|u) (?:suffer|bleed|pay for this)\\b`),
];

const NEGATION = /\b(?:not|never|no|n't|nobody)\b|n't /;

const DIRECT_THREATS: RegExp[] = [
  /\byou(?:'re| are| r) (?:so |going to be |gonna be )?dead(?: meat)?(?= ?(?:$|[.!?,]|when|if|next|tonight|tomorrow))/,
  /\byou(?:'re| are| r) (?:going to|gonna) (?:die|get hurt|regret this|bleed)\b/,
  /\b(?:i|we) know where you (?:live|sleep|work)\b/,
  /\b(?:kill|hang|shoot|hurt) (?:yourself|urself|yourselves)\b/,
  /\bkys\b/,
  /\b(?:i )?hope (?:you|u) (?:die|get (?:raped|killed|hurt|stabbed|shot))\b/,
  /\byou (?:deserve|ought) to (?:die|be (?:raped|killed|shot|hurt))\b/,
  /\bsleep with one eye open\b/,
];

function findThreat(normalized: string): string | null {
  for (const pattern of INTENT_THREATS) {
    for (const match of normalized.matchAll(new RegExp(pattern, 'g'))) {
      const filler = match[1] ?? '';
      if (!NEGATION.test(filler)) return `reads as a threat of violence ("${match[0]}")`;
    }
  }
  for (const pattern of DIRECT_THREATS) {
    const match = pattern.exec(normalized);
    if (match) return `reads as a threat of violence ("${match[0]}")`;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Sexual solicitation

const SOLICITATION: RegExp[] = [
  /\b(?:send|show|share|post|text) (?:me )?(?:some |a few |your |ur )*(?:nudes?|naked (?:pics?|photos?|selfies?|pictures?)|nsfw (?:pics?|photos?|content)|dick ?pics?|pics? of your (?:body|boobs?|tits?|ass|butt|dick|cock)|(?:boob|tit|butt|ass) pics?)\b/,
  /\b(?:have|having|had) sex\b/,
  /\bsex with (?:me|you|u)\b/,
  /\b(?:looking for|want|wanna|down for|up for|into|dtf for|need) (?:a |some )?(?:casual )?(?:hook-?ups?|quickies?|booty calls?|fwb|nsa|sexting)\b/,
  /\b(?:casual sex|friends with benefits|no strings attached fun|nsa fun|one night stand|netflix and chill|booty call)\b/,
  /\bdtf\b/,
  /\b(?:sugar ?(?:daddy|daddies|baby|babies|mommy|mama)|escort(?:ing)? services?|onlyfans|only fans|happy ending)\b/,
  /\b(?:sleep|sleeping|spend the night) with (?:me|you|u)\b/,
  /\b(?:come|coming|get) (?:over )?(?:in)?to my (?:bed|bedroom)\b/,
  /\b(?:wanna|want to|let's|lets|gonna|going to) (?:fuck|bang|screw|shag|smash) (?:you|u|me|tonight)\b/,
  /(?:\$ ?\d+|\b\d+ ?(?:dollars|bucks|usd|eur|euros|pounds|gbp)\b|\bpay (?:you|u)\b).{0,40}\b(?:sex|sleep with|night with|naked|nudes?|hook ?up|kiss me|touch me)\b/,
];

function findSolicitation(normalized: string): string | null {
  for (const pattern of SOLICITATION) {
    const match = pattern.exec(normalized);
    if (match) return `reads as sexual solicitation ("${match[0]}")`;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Shouting and repeated-character spam

export const SHOUTING_MIN_LETTERS = 20;
export const SHOUTING_UPPER_RATIO = 0.7;

function findShouting(text: string): string | null {
  const letters = text.match(/[\p{Lu}\p{Ll}]/gu) ?? [];
  if (letters.length < SHOUTING_MIN_LETTERS) return null;
  const upper = letters.filter((c) => /\p{Lu}/u.test(c)).length;
  const ratio = upper / letters.length;
  if (ratio < SHOUTING_UPPER_RATIO) return null;
  return `is ${Math.round(ratio * 100)}% capital letters`;
}

/** A run of one character this long is spam (digits, spaces and separator lines are exempt). */
export const SPAM_CHAR_RUN = 10;
/** A short chunk ("ha", "lol ") repeated back to back this many times is spam. */
export const SPAM_CHUNK_REPEATS = 8;
/** The same word this many times in a row is spam. */
export const SPAM_WORD_REPEATS = 6;

const EXEMPT_RUN_CHARS = /[\s\d\-_=.*~#]/u;

function findSpam(text: string): string | null {
  const chars = [...text];
  let run = 1;
  for (let i = 1; i < chars.length; i++) {
    run = chars[i] === chars[i - 1] ? run + 1 : 1;
    if (run >= SPAM_CHAR_RUN && !EXEMPT_RUN_CHARS.test(chars[i]!)) {
      return `repeats "${chars[i]}" ${SPAM_CHAR_RUN} or more times in a row`;
    }
  }
  const lower = text.toLowerCase();
  const chunk = new RegExp(`(\\p{L}[^]{1,5}?)\\1{${SPAM_CHUNK_REPEATS - 1},}`, 'u').exec(lower);
  if (chunk) return `repeats "${chunk[1]}" ${SPAM_CHUNK_REPEATS} or more times in a row`;
  const word = new RegExp(
    `(?<![\\p{L}\\p{N}])([\\p{L}\\p{N}']+)(?:[^\\p{L}\\p{N}']+\\1(?![\\p{L}\\p{N}])){${SPAM_WORD_REPEATS - 1},}`,
    'u',
  ).exec(lower);
  if (word) return `repeats the word "${word[1]}" ${SPAM_WORD_REPEATS} or more times in a row`;
  return null;
}

// ---------------------------------------------------------------------------

/** Checks the rules in order of severity and returns the first that refuses the text. */
export function moderateText(text: string): ModerationVerdict {
  const normalized = normalizeForRules(text);
  const checks: [ModerationRule, () => string | null][] = [
    ['profanity', () => findProfanity(text)],
    ['threat', () => findThreat(normalized)],
    ['solicitation', () => findSolicitation(normalized)],
    ['spam', () => findSpam(text)],
    ['shouting', () => findShouting(text)],
  ];
  for (const [rule, check] of checks) {
    const reason = check();
    if (reason) return { ok: false, rule, code: RULE_CODES[rule], reason };
  }
  return { ok: true };
}

/** Throws the 422 for a refused text; `field` is the body field it came from. */
export function assertTextAllowed(text: string | null | undefined, field: string): void {
  if (!text) return;
  const verdict = moderateText(text);
  if (verdict.ok) return;
  throw new ApiError(verdict.code, `Not sent: the ${field} ${verdict.reason}`, {
    hint: ERROR_ADVICE[verdict.code],
    fields: { [field]: verdict.reason },
  });
}

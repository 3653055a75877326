import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { assertTextAllowed, moderateText, type ModerationRule } from './text';
import { errorStatus } from '../http/error-response';

const ruleOf = (text: string): ModerationRule | null => {
  const verdict = moderateText(text);
  return verdict.ok ? null : verdict.rule;
};

describe('moderateText', () => {
  it.each([
    // profanity: slurs and explicit language, including disguised spellings
    ['profanity', 'you are a n1gger'],
    ['profanity', 'what a f@ggot'],
    ['profanity', 'stop being such a retard'],
    ['profanity', 'fuuuuck off'],
    ['profanity', 'shut up you cunt'],
    ['profanity', 'nice dildo collection'],
    // threats of violence
    ['threat', "I'm going to kill you"],
    ['threat', 'I will find you and hurt you'],
    ['threat', 'I WILL STAB YOU tonight'],
    ['threat', "I'll beat you up after the game"],
    ['threat', "I'm gonna break your legs"],
    ['threat', 'I know where you live.'],
    ['threat', "you're dead when I see you"],
    ['threat', 'go kill yourself'],
    ['threat', 'I hope you die'],
    ['threat', 'We are going to shoot you'],
    // sexual solicitation
    ['solicitation', 'send me nudes'],
    ['solicitation', 'Can you send some naked pics?'],
    ['solicitation', 'want to have sex tonight?'],
    ['solicitation', 'just looking for a hookup'],
    ['solicitation', 'u dtf?'],
    ['solicitation', "I'll give you $200 for a night with you"],
    ['solicitation', 'need a sugar daddy?'],
    ['solicitation', 'netflix and chill at mine?'],
    // repeated-character spam
    ['spam', 'heyyyyyyyyyyyy'],
    ['spam', 'Hi!!!!!!!!!!!!!!'],
    ['spam', 'hahahahahahahahahahaha'],
    ['spam', 'buy buy buy buy buy buy now'],
    // shouting
    ['shouting', 'HEY ARE YOU FREE TO HIKE THIS SATURDAY MORNING'],
    ['shouting', 'WHY DID YOU NOT ANSWER MY LAST MESSAGE?!'],
  ] as const)('refuses %s: %s', (rule, text) => {
    expect(ruleOf(text)).toBe(rule);
  });

  it.each([
    // near misses for profanity: innocent words containing or resembling a listed word
    'Scunthorpe is lovely in spring',
    'Fancy a cocktail after the climb?',
    'My friend Dick is joining us',
    'I saw a blue tit and some deer scat on the trail',
    'Same-sex couples welcome at our running club',
    'He plays hooker for the rugby team',
    'Dinner was food porn, honestly',
    'That was a shit hike, the rain never stopped',
    'Let us do an analysis of the route',
    'I graduated summa cum laude',
    'Essex and Sussex have great coastal paths',
    // near misses for threats
    "I'd kill for a coffee right now",
    'This hill is going to kill me',
    'The views were killer',
    'You killed it at the climbing gym!',
    "I'll shoot you a message tomorrow",
    "I'll shoot you a text when I'm there",
    "I'm going to beat you at tennis",
    'I would never hurt you',
    "I will not hurt you, it's a gentle yoga class",
    "I'm dead tired after that run",
    "You're dead right about the weather",
    'Shoot me a text',
    'We will attack the summit at dawn',
    // near misses for solicitation
    'I am looking for a hiking buddy',
    "Let's hook up the kayak rack",
    'Want to grab a coffee and chill?',
    "I'll pay for the coffee",
    'I sleep with earplugs on camping trips',
    'Send me the trail map please',
    'The puppy is a girl, I checked its sex at the vet',
    // near misses for spam and shouting
    'Sooooo excited for Saturday!!!',
    'hahaha see you then',
    'Meet at 10000000 steps, joking',
    'I really really really want to go',
    '----------',
    'Meet me at the REI on Saturday, OK? NYC trip later',
    'I LOVE HIKING',
    'NASA, USA, NYC and LA',
    'Ok',
  ])('allows: %s', (text) => {
    expect(moderateText(text)).toEqual({ ok: true });
  });

  it('reports where a slur is without repeating it', () => {
    const verdict = moderateText('well you n1gger');
    expect(verdict).toMatchObject({ ok: false, code: 'message_blocked_profanity' });
    expect(verdict.ok === false && verdict.reason).toMatch(/characters 10-15/);
    expect(verdict.ok === false && verdict.reason).not.toMatch(/n1gger/i);
  });

  it('sees through curly apostrophes and zero-width characters', () => {
    expect(ruleOf('I\u2019ll k\u200Bill you')).toBe('threat');
  });
});

describe('assertTextAllowed', () => {
  it('throws a 422 naming the rule, the field and a hint', () => {
    try {
      assertTextAllowed('send me nudes', 'message');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      const e = error as ApiError;
      expect(errorStatus(e)).toBe(422);
      expect(e.code).toBe('message_blocked_solicitation');
      expect(e.fields).toEqual({ message: expect.stringMatching(/solicitation/) });
      expect(e.hint).toBeTruthy();
    }
  });

  it('lets empty and absent texts through', () => {
    expect(() => assertTextAllowed(undefined, 'message')).not.toThrow();
    expect(() => assertTextAllowed('', 'message')).not.toThrow();
    expect(() => assertTextAllowed('See you at the trailhead', 'text')).not.toThrow();
  });
});

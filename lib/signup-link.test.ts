import { describe, expect, it } from 'vitest';
import { registerBodySchema } from './contract/accounts';
import { GENDERS } from './contract/schemas';
import {
  GENDER_OPTIONS,
  draftFromQuery,
  normalizeGender,
  paramForField,
  readQuery,
  registrationBody,
  signupLink,
} from './signup-link';

describe('the signup-with-ai link', () => {
  it('round-trips through a built link into a valid registration body', () => {
    const link = signupLink('https://buddy.example', {
      email: 'zoë+test@example.com',
      name: 'Zoë & <b>Co</b>',
      activities: 'hiking, board games; coffee',
      availability: 'weekends',
      gender: 'Non-binary',
      birthday: '1990-04-21',
      photo: 'https://img.example/p.jpg',
      agent: 'TestAgent',
    });
    const url = new URL(link);
    expect(url.pathname).toBe('/signup-with-ai');
    const draft = draftFromQuery(Object.fromEntries(url.searchParams));
    const body = registrationBody(draft);
    expect(body).toEqual({
      email: 'zoë+test@example.com',
      displayName: 'Zoë & <b>Co</b>',
      gender: 'non_binary',
      birthday: '1990-04-21',
      activities: ['hiking', 'board games', 'coffee'],
      availability_text: 'weekends',
      photoURL: 'https://img.example/p.jpg',
      agentName: 'TestAgent',
    });
    expect(registerBodySchema.safeParse({ ...body, email: 'zoe@example.com' }).success).toBe(true);
  });

  it('sends a data: photo inline, keeps an unknown gender as typed and omits empty fields', () => {
    const body = registrationBody(
      draftFromQuery({ email: 'a@b.co', name: 'A', photo: 'data:image/png;base64,AAAA', gender: 'robot', about: '  ' }),
    );
    expect(body).toEqual({ email: 'a@b.co', displayName: 'A', photo: 'data:image/png;base64,AAAA', gender: 'robot' });
    expect(draftFromQuery({ email: ['first@x.co', 'second@x.co'] }).email).toBe('first@x.co');
  });

  it('reads the API’s field names too, and lists every value it does not use (issue 31 §8)', () => {
    const { draft, unused } = readQuery({
      email: 'a@b.co',
      displayName: 'Ana',
      aboutMe: 'Runner.',
      availability_text: 'weekends',
      activities: ['hiking', 'chess'],
      name: 'Ana',
      about: 'Swimmer.',
      favouriteColour: 'teal',
      callbackUrl: '/oauth/consent',
    });
    expect(draft).toMatchObject({
      email: 'a@b.co',
      name: 'Ana',
      about: 'Swimmer.',
      availability: 'weekends',
      activities: 'hiking, chess',
    });
    expect(unused).toEqual([
      { name: 'aboutMe', value: 'Runner.' },
      { name: 'favouriteColour', value: 'teal' },
    ]);
    const many = readQuery(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`x${i}`, 'y'.repeat(500)])));
    expect(many.unused).toHaveLength(21);
    expect(many.unused[0]!.value).toHaveLength(100);
    expect(many.unused[20]).toEqual({ name: 'and 5 more', value: '' });
  });

  it('maps API field errors back to link parameters', () => {
    expect(paramForField('displayName')).toBe('name');
    expect(paramForField('birthday')).toBe('birthday');
    expect(paramForField('photoURL')).toBe('photo');
    expect(paramForField('photo')).toBe('photo');
    expect(paramForField('coords.latitude')).toBeUndefined();
  });

  it('offers exactly the contract genders', () => {
    expect([...GENDER_OPTIONS]).toEqual([...GENDERS]);
    expect(normalizeGender('Woman')).toBe('female');
    expect(normalizeGender('prefer not to say')).toBe('prefer_not_to_say');
  });
});

describe("normalizeGender with the prototype's property names (issue 41)", () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'keeps %s as typed, for the API to refuse',
    (word) => {
      expect(normalizeGender(word)).toBe(word);
    },
  );
});

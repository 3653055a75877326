// What a reminder mail may say of a plan (issue 46 §5): the catalog's name for the activity and a
// plain first name, never the words someone chose (docs/security.md: no chosen text in mail).
import { describe, expect, it } from 'vitest';
import { reminderWhat } from './reminder-mail';

describe('reminderWhat', () => {
  it.each([
    ['Bouldering', 'Ana Lima', 'Rock Climbing with Ana', 'rock climbing with Ana'],
    ['hiking', 'Sam', 'Hiking with Sam', 'hiking with Sam'],
    ['Evil activity https://evil.example', 'Rita Remind', 'Your plan with Rita', 'your plan with Rita'],
    ['Bouldering', 'https://evil.example', 'Rock Climbing with your buddy', 'rock climbing with your buddy'],
  ])('%j with %j', (activity, buddy, sentence, subject) => {
    expect(reminderWhat(activity, buddy)).toEqual({ sentence, subject });
  });
});

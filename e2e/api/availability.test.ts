// Honest availability (issue 14 §4) through registration and PATCH /me.json: what the
// parser understood is what is stored, and what it changed or did not understand is said.
import { describe, expect, it } from 'vitest';
import { bitsToGrid, summarizeGrid } from '@/lib/availability';
import { register } from '@/lib/contract/accounts';
import { parseAvailability, updateMe } from '@/lib/contract/profiles';
import { testDb, uniqueEmail } from './client';
import { call } from './contract-client';

const storedSummary = async (userId: string) => {
  const row = await testDb().selectFrom('users').select('schedule').where('id', '=', userId).executeTakeFirstOrThrow();
  if (!row.schedule) throw new Error(`no schedule stored for ${userId}`);
  return summarizeGrid(bitsToGrid(row.schedule));
};

describe('availability_text at registration', () => {
  it.each([
    // Friday was kept and Saturday lost before the exception learned where it ends.
    ['weeknights except fridays, sat afternoons', 'Monday–Thursday evenings; Saturday afternoon', undefined, undefined],
    [
      'after 6:30 on weekdays',
      'Weekdays 7pm–midnight',
      ['availability_text: 6:30pm falls in the hour 6pm–7pm'],
      undefined,
    ],
    ['weekends and when the moon is full', 'Saturday and Sunday, all day', undefined, ['when the moon is full']],
    // Issue 44 §3: a condition on a clause that the service cannot read leaves the clause out.
    [
      'tuesday evenings, and saturdays if it is sunny',
      'Tuesday evening (5pm–midnight)',
      undefined,
      ['if it is sunny (in "saturdays if it is sunny")'],
    ],
  ])('%s', async (text, summary, normalized, unparsed) => {
    const { user, warnings } = await call(register, {
      body: { email: uniqueEmail(), displayName: 'Test Person', availability_text: text },
    });
    expect(warnings.schedule_summary).toBe(summary);
    expect(await storedSummary(user.id)).toBe(summary);
    expect(warnings.normalized?.map((n) => n.split(',')[0])).toEqual(normalized);
    expect(warnings.availability_unparsed).toEqual(unparsed);
  });
});

describe('availability_text on PATCH /me.json', () => {
  it('reports rounding and stores the same grid as the summary says', async () => {
    const { user, auth } = await call(register, { body: { email: uniqueEmail(), displayName: 'Test Person' } });
    const res = await call(updateMe, { token: auth.token, body: { availability_text: 'sat 9:30am to 12:45pm' } });
    expect(res.warnings.schedule_summary).toBe('Saturday 10am–noon');
    expect(res.warnings.normalized).toEqual([
      'availability_text: 9:30am falls in the hour 9am–10am, so free time is counted from 10am (it is kept in whole hours, and an hour only partly free is left out)',
      'availability_text: 12:45pm falls in the hour noon–1pm, so free time is counted until noon (it is kept in whole hours, and an hour only partly free is left out)',
    ]);
    expect(await storedSummary(user.id)).toBe('Saturday 10am–noon');
  });
});

// Issue 36: scope, busy-only text and typos, the same through parse.json, registration and PATCH.
describe('availability_text that says only when the person is busy', () => {
  const question =
    /^"not mondays" says only when they are busy, so nothing was stored for it: ask which days and times/;

  it('parse.json answers 200 with the question and an empty week', async () => {
    const res = await call(parseAvailability, { body: { text: 'not mondays' } });
    expect(res.summary).toBe('No availability set');
    expect(res.unparsed).toEqual([expect.stringMatching(question)]);
  });

  it('registration answers 201 and stores nothing for that clause', async () => {
    const { user, warnings } = await call(register, {
      body: { email: uniqueEmail(), displayName: 'Test Person', availability_text: 'not mondays' },
    });
    expect(warnings.availability_unparsed).toEqual([expect.stringMatching(question)]);
    expect(await storedSummary(user.id)).toBe('No availability set');
  });

  it('PATCH answers 200, keeps the free clauses and asks about the busy one', async () => {
    const { user, auth } = await call(register, { body: { email: uniqueEmail(), displayName: 'Test Person' } });
    const text = 'Wendesday evnings except after 10pm. not mondays';
    const res = await call(updateMe, { token: auth.token, body: { availability_text: text } });
    expect(res.warnings.schedule_summary).toBe('Wednesday 5pm–10pm');
    expect(await storedSummary(user.id)).toBe('Wednesday 5pm–10pm');
    // Free time was given, so "not mondays" takes Monday away from it and needs no question.
    expect(res.warnings.availability_unparsed).toBeUndefined();
    expect(res.warnings.normalized).toEqual([
      'availability_text: read "wendesday" as "wednesday"',
      'availability_text: read "evnings" as "evenings"',
    ]);
  });

  it("reads issue 36's table as the people meant", async () => {
    for (const [text, summary] of [
      [
        'weekday evenings except Wednesdays and Sunday mornings',
        'Monday, Tuesday, Thursday and Friday evenings; Sunday morning',
      ],
      ['mornings before work, and all day saturday', 'Weekdays 6am–9am; Saturday, all day'],
      ['I work nights so mornings are best', 'Every morning (6am–noon)'],
    ] as const) {
      const res = await call(parseAvailability, { body: { text } });
      expect(res.summary).toBe(summary);
      expect(res.unparsed).toEqual([]);
    }
  });
});

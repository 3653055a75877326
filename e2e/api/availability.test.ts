// Honest availability (issue 14 §4) through registration and PATCH /me.json: what the
// parser understood is what is stored, and what it changed or did not understand is said.
import { describe, expect, it } from 'vitest';
import { bitsToGrid, summarizeGrid } from '@/lib/availability';
import { register } from '@/lib/contract/accounts';
import { updateMe } from '@/lib/contract/profiles';
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
      'Weekdays 6pm–midnight',
      ['availability_text: 6:30pm falls in the hour 6pm–7pm'],
      undefined,
    ],
    ['weekends, when the moon is full', 'Saturday and Sunday, all day', undefined, ['when the moon is full']],
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
    expect(res.warnings.schedule_summary).toBe('Saturday 9am–1pm');
    expect(res.warnings.normalized).toEqual([
      'availability_text: 9:30am falls in the hour 9am–10am, which is counted whole (free time is kept in one-hour slots)',
      'availability_text: 12:45pm falls in the hour noon–1pm, which is counted whole (free time is kept in one-hour slots)',
    ]);
    expect(await storedSummary(user.id)).toBe('Saturday 9am–1pm');
  });
});

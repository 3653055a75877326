import { describe, expect, it } from 'vitest';
import { loggedPath } from './log';

describe('loggedPath', () => {
  it('drops the query string and redacts a calendar feed secret, and nothing else', () => {
    expect(loggedPath('/signin/link?token=bm_sl_abc')).toBe('/signin/link');
    expect(loggedPath('/api/v1/calendar/bm_cal_s3cret-_x.ics')).toBe('/api/v1/calendar/[redacted]');
    expect(loggedPath('/api/v1/calendar/bm_cal_s3cret.ics?x=1')).toBe('/api/v1/calendar/[redacted]');
    expect(loggedPath('/api/v1/plans/abc.ics')).toBe('/api/v1/plans/abc.ics');
    expect(loggedPath('/share/bm_sh_s3cret')).toBe('/share/[redacted]');
    expect(loggedPath('/share/bm_sh_s3cret/x?y=1')).toBe('/share/[redacted]/x');
    expect(loggedPath('/mail/stop?token=c.abc.def')).toBe('/mail/stop');
  });
});

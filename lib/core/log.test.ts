import { describe, expect, it, vi } from 'vitest';
import { loggedPath, logLine } from './log';

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

describe('logLine', () => {
  it('writes the lines of one turn in one write, in order, and a warning at once after them', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      logLine({ n: 1 });
      logLine({ n: 2 });
      expect(write).not.toHaveBeenCalled();
      await new Promise((resolve) => setImmediate(resolve));
      expect(write).toHaveBeenCalledTimes(1);
      expect(
        String(write.mock.calls[0]![0])
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).n),
      ).toEqual([1, 2]);
      logLine({ n: 3 });
      logLine({ level: 'warn', n: 4 });
      expect(write.mock.calls.slice(1).map(([text]) => JSON.parse(String(text)).n)).toEqual([3, 4]);
      expect(JSON.parse(String(write.mock.calls[1]![0])).time).toMatch(/^\d{4}-\d\d-\d\dT/);
    } finally {
      write.mockRestore();
    }
  });
});

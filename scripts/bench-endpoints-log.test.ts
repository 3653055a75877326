import { describe, expect, it } from 'vitest';
import { loggedStatements, parseParameters, percentile } from './bench-endpoints-log';

// Lines as PostgreSQL writes them with log_line_prefix '%m|%c|%d|%a|' (a message's further lines start with a tab).
const LOG = [
  '2026-11-26 19:00:00.001 UTC|s1|buddy||LOG:  execute <unnamed>: select *',
  '\tfrom users where id = $1',
  "2026-11-26 19:00:00.002 UTC|s1|buddy||DETAIL:  Parameters: $1 = 'u1'",
  '2026-11-26 19:00:00.003 UTC|s2|buddy||LOG:  statement: begin',
  '2026-11-26 19:00:00.004 UTC|s3|other||LOG:  statement: select 1',
  '2026-11-26 19:00:00.005 UTC|s4|buddy|bench|LOG:  statement: alter system reset log_statement',
  '2026-11-26 19:00:00.006 UTC|s5|buddy||LOG:  execute <unnamed>: select * from pgboss.job',
  '2026-11-26 19:00:00.007 UTC|s1|buddy||LOG:  duration: 1 ms',
  '',
].join('\n');

describe('bench:endpoints log helpers', () => {
  it("reads a statement's parameters, quotes and NULLs included", () => {
    expect(parseParameters("Parameters: $1 = 'it''s', $2 = NULL, $3 = '\\x0a'")).toEqual(["it's", null, '\\x0a']);
  });

  it("keeps the request's statements and leaves out other databases, its own connection and pg-boss", () => {
    expect(loggedStatements(LOG, { database: 'buddy', skipApplication: 'bench' })).toEqual([
      { session: 's1', sql: 'select *\nfrom users where id = $1', params: ['u1'] },
      { session: 's2', sql: 'begin', params: [] },
    ]);
  });

  it('takes percentiles by nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});

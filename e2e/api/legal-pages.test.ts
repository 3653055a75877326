// Issue 47: /privacy and /terms, which app directories ask for. Plain HTML with the site's
// security headers; every period they name is one of the retention table's
// (lib/legal/retention.ts), so a period typed into the prose by hand fails here; the contact
// and the periods that are configurable follow the server's configuration. And the minute
// sweep's part of what the privacy page promises: limit counters go once their window ends.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '@/lib/config';
import { pruneSpentCounters } from '@/lib/accounts/prune-counters';
import { periodInWords, retentionPeriods } from '@/lib/legal/retention';
import { startServerProcess, type ServerProcess } from '../support/stack';
import { baseUrl, freshIp, testDb, uniqueEmail } from './client';

const PAGES = ['/privacy', '/terms'] as const;
const PERIOD = /\b(\d+)\s+(second|minute|hour|day|week|month|year)s?\b/g;

/** The words a person reads: tags dropped, entities and spaces folded. */
function visibleText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** The periods a page names, as "N unit(s)" phrases (years are ages, not periods, and left out). */
function periodsNamed(text: string): string[] {
  return [...text.matchAll(PERIOD)].filter((m) => m[2] !== 'year').map((m) => m[0]);
}

/** The configuration a server started with `env` runs with (the test stack's own variables included). */
function serverConfig(base: string, env: Record<string, string> = {}) {
  return loadConfig({ ...process.env, PUBLIC_BASE_URL: base, ...env } as NodeJS.ProcessEnv);
}

describe('/privacy and /terms', () => {
  it.each(PAGES)(
    '%s is a plain HTML page with the site’s headers, no script, and its nonce on the one stylesheet',
    async (path) => {
      const res = await fetch(`${baseUrl()}${path}?from=somewhere`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      for (const name of ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'permissions-policy'])
        expect(res.headers.get(name), name).toBeTruthy();
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("frame-ancestors 'none'");
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      const html = await res.text();
      expect(html).not.toMatch(/<script/i);
      expect([...html.matchAll(/<style\b[^>]*>/g)].map((m) => m[0])).toEqual([`<style nonce="${nonce}">`]);
      expect(html).toContain('<a href="/privacy">Privacy</a>'); // the footer, as on every page
      const head = await fetch(`${baseUrl()}${path}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    },
  );

  it('names only periods of the retention table, and the privacy page lists every one of them with the contact', async () => {
    const cfg = serverConfig(baseUrl());
    const table = retentionPeriods(cfg);
    const inTable = new Set(table.map((row) => periodInWords(row.seconds)));
    for (const path of PAGES) {
      const text = visibleText(await (await fetch(`${baseUrl()}${path}`)).text());
      const named = periodsNamed(text);
      expect(named.length, path).toBeGreaterThan(0);
      expect(
        named.filter((phrase) => !inTable.has(phrase)),
        `${path} names a period that is not in lib/legal/retention.ts`,
      ).toEqual([]);
      expect(text, path).toContain(cfg.contactEmail);
    }
    const privacy = visibleText(await (await fetch(`${baseUrl()}/privacy`)).text());
    for (const row of table) expect(privacy, row.id).toContain(`${row.what} ${periodInWords(row.seconds)}`);
    expect(privacy).toContain(`at least ${cfg.ages.minimumAge}`);
  });

  describe('on a server set up otherwise', () => {
    let other: ServerProcess;
    const env = { CONTACT_EMAIL: 'privacy@buddy.example', PLAN_CHECKIN_DELAY: '45m', MINIMUM_AGE: '16' };
    beforeAll(async () => {
      other = await startServerProcess({
        databaseUrl: inject('databaseUrl'),
        dataDir: inject('dataDir'),
        env,
        args: ['--role=web'],
        logName: 'server-legal.log',
      });
    }, 120_000);
    afterAll(async () => other?.stop());

    it('says that server’s contact, minimum age and check-in delay', async () => {
      const terms = visibleText(await (await fetch(`${other.baseUrl}/terms`)).text());
      expect(terms).toContain('privacy@buddy.example');
      expect(terms).toContain('You must be at least 16.');
      expect(terms).toContain('45 minutes after the start we ask “All good?”');
      const privacy = await (await fetch(`${other.baseUrl}/privacy`)).text();
      expect(privacy).toContain('href="mailto:privacy@buddy.example"');
    });
  });
});

describe('the minute sweep’s counters (what /privacy promises)', () => {
  it('deletes each counter row once its window is over, and keeps the ones still counting', async () => {
    const db = testDb();
    const cfg = serverConfig(baseUrl());
    const ip = freshIp();
    const email = uniqueEmail('counters');
    const ago = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds})`;
    const day = 86_400;
    await db
      .insertInto('registrations')
      .values([
        { ip, created_at: ago(2 * 3600) },
        { ip, created_at: ago(60) },
      ])
      .execute();
    await db
      .insertInto('auth_attempts')
      .values([
        { kind: 'password_failure', account_key: email, ip, created_at: ago(day + 60) },
        { kind: 'password_failure', account_key: email, ip, created_at: ago(day - 600) },
        { kind: 'link_request', account_key: email, ip, created_at: ago(3600 + 60) },
        { kind: 'link_request', account_key: email, ip, created_at: ago(60) },
      ])
      .execute();
    await db
      .insertInto('signin_addresses')
      .values({ account_key: email, ip, last_success_at: ago(31 * day) })
      .execute();
    await sql`insert into rate_limits (key, points, expire) values
      (${`legal-test:spent:${ip}`}, 1, ${Date.now() - 1000}), (${`legal-test:live:${ip}`}, 1, ${Date.now() + 60_000})`.execute(
      db,
    );

    await pruneSpentCounters(db, cfg);

    const registrations = await db.selectFrom('registrations').select('created_at').where('ip', '=', ip).execute();
    expect(registrations).toHaveLength(1);
    const attempts = await db
      .selectFrom('auth_attempts')
      .select(['kind'])
      .where('account_key', '=', email)
      .orderBy('kind')
      .execute();
    expect(attempts.map((a) => a.kind)).toEqual(['link_request', 'password_failure']);
    expect(await db.selectFrom('signin_addresses').selectAll().where('account_key', '=', email).execute()).toEqual([]);
    const { rows } = await sql<{
      key: string;
    }>`select key from rate_limits where key like ${`legal-test:%:${ip}`}`.execute(db);
    expect(rows.map((r) => r.key)).toEqual([`legal-test:live:${ip}`]);
    await sql`delete from rate_limits where key like ${`legal-test:%:${ip}`}`.execute(db);
    await db.deleteFrom('registrations').where('ip', '=', ip).execute();
    await db.deleteFrom('auth_attempts').where('account_key', '=', email).execute();
  });
});

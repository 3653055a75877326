import { describe, expect, it } from 'vitest';
import { FRESH_SIGNIN_SECONDS } from '../accounts/delete';
import { NOT_ME_LINK_TTL_SECONDS } from '../accounts/not-me-links';
import { SESSION_MAX_AGE_SECONDS } from '../accounts/sessions';
import { SIGNIN_LINK_TTL_SECONDS } from '../accounts/signin-links';
import { loadConfig } from '../config';
import { IDEMPOTENCY_TTL_SECONDS } from '../http/idempotency';
import { JOB_ARCHIVE_KEPT_DAYS, JOB_ARCHIVED_AFTER_SECONDS } from '../jobs/boss';
import { LIMIT_RULES } from '../limits/rules';
import { CONFIRMATION_TTL_MS } from '../mcp/person-confirm';
import { WEB_PUSH_TTL_SECONDS } from '../notifications/web-push';
import { ACCESS_TOKEN_TTL_S, OAUTH_TTL_SECONDS } from '../oauth/provider';
import { CANCELLED_KEPT_DAYS, PAST_KEPT_DAYS } from '../plans/calendar-feed';
import { NO_SHOW_WINDOW_DAYS } from '../plans/reliability';
import { REVIEW_ASKED_FOR_DAYS } from '../plans/reviews';
import { SHARE_KEPT_HOURS } from '../plans/share';
import { periodInWords, type RetentionId, retentionInWords, retentionPeriods } from './retention';

const DAY = 86_400;

describe('the retention table', () => {
  // Not the defaults, so an entry that copied a default instead of reading the configuration fails.
  const env: Record<string, string> = { PLAN_CHECKIN_DELAY: '45m', PLAN_CHECKIN_ANSWER_WINDOW: '20m' };
  const cfg = loadConfig(env as NodeJS.ProcessEnv);
  const table = retentionPeriods(cfg);

  it('holds each period as its source in the code has it', () => {
    const expected: Record<RetentionId, number> = {
      signin_link: SIGNIN_LINK_TTL_SECONDS,
      not_me_link: NOT_ME_LINK_TTL_SECONDS,
      web_session: SESSION_MAX_AGE_SECONDS,
      fresh_signin: FRESH_SIGNIN_SECONDS,
      oauth_access_token: ACCESS_TOKEN_TTL_S,
      oauth_refresh_token: OAUTH_TTL_SECONDS.RefreshToken,
      oauth_grant: OAUTH_TTL_SECONDS.Grant,
      person_confirmation: CONFIRMATION_TTL_MS / 1000,
      idempotency: IDEMPOTENCY_TTL_SECONDS,
      share_page: SHARE_KEPT_HOURS * 3600,
      checkin_delay: 45 * 60,
      checkin_answer: 20 * 60,
      calendar_past: PAST_KEPT_DAYS * DAY,
      calendar_cancelled: CANCELLED_KEPT_DAYS * DAY,
      review_asked: REVIEW_ASKED_FOR_DAYS * DAY,
      no_show: NO_SHOW_WINDOW_DAYS * DAY,
      web_push_held: WEB_PUSH_TTL_SECONDS,
      jobs_archived: JOB_ARCHIVED_AFTER_SECONDS,
      jobs_archive_kept: JOB_ARCHIVE_KEPT_DAYS * DAY,
      rate_limit_counters: LIMIT_RULES.location_change.windowSeconds,
      registration_counter: LIMIT_RULES.registrations.windowSeconds,
      password_failures: Math.max(
        LIMIT_RULES.signin_failures_per_ip.windowSeconds,
        LIMIT_RULES.signin_failures_before_backoff.windowSeconds,
      ),
      link_requests: LIMIT_RULES.signin_links_per_ip.windowSeconds,
      known_address: cfg.signinFailureLimits.knownAddressSeconds,
    };
    expect(Object.fromEntries(table.map((row) => [row.id, row.seconds]))).toEqual(expected);
  });

  it('has one row per id, each saying what lasts and where its value lives', () => {
    expect(new Set(table.map((row) => row.id)).size).toBe(table.length);
    for (const row of table) {
      expect(row.what.length, row.id).toBeGreaterThan(10);
      expect(row.source, row.id).toMatch(/[A-Za-z_]+/);
      expect(row.seconds, row.id).toBeGreaterThan(0);
    }
  });

  it('says periods as people do', () => {
    expect(periodInWords(3600)).toBe('1 hour');
    expect(periodInWords(DAY)).toBe('24 hours');
    expect(periodInWords(2 * DAY)).toBe('2 days');
    expect(periodInWords(15 * 60)).toBe('15 minutes');
    expect(periodInWords(90 * 60)).toBe('90 minutes');
    expect(periodInWords(30)).toBe('30 seconds');
    const { period } = retentionInWords(cfg);
    expect(period('web_session')).toBe(periodInWords(SESSION_MAX_AGE_SECONDS));
  });
});

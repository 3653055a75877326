// Every period the privacy page and the terms name (how long something is kept, lasts or
// counts), in one table whose values come from where the code keeps them: the constants are
// imported, the configurable ones read from the configuration. The pages render their periods
// from here only, so a change in the code changes the page; retention.test.ts checks each entry
// against its source, and e2e/api/legal-pages.test.ts that the page names no other period.
import { FRESH_SIGNIN_SECONDS } from '../accounts/delete';
import { NOT_ME_LINK_TTL_SECONDS } from '../accounts/not-me-links';
import { SESSION_MAX_AGE_SECONDS } from '../accounts/sessions';
import { SIGNIN_LINK_TTL_SECONDS } from '../accounts/signin-links';
import type { Config } from '../config';
import { IDEMPOTENCY_TTL_SECONDS } from '../http/idempotency';
import { JOB_ARCHIVE_KEPT_DAYS, JOB_ARCHIVED_AFTER_SECONDS } from '../jobs/boss';
import { counterKeepSeconds } from '../accounts/prune-counters';
import { LIMIT_NAMES, LIMIT_RULES } from '../limits/rules';
import { CONFIRMATION_TTL_MS } from '../mcp/person-confirm';
import { WEB_PUSH_TTL_SECONDS } from '../notifications/web-push';
import { OAUTH_TTL_SECONDS } from '../oauth/provider';
import { CANCELLED_KEPT_DAYS, PAST_KEPT_DAYS } from '../plans/calendar-feed';
import { NO_SHOW_WINDOW_DAYS } from '../plans/reliability';
import { REVIEW_ASKED_FOR_DAYS } from '../plans/reviews';
import { SHARE_KEPT_HOURS } from '../plans/share';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface RetentionPeriod {
  id: string;
  /** What lasts this long, as the page's table says it. */
  what: string;
  seconds: number;
  /** Where the value lives in the code. */
  source: string;
}

/** The configuration the periods read (the rest are constants). */
export type RetentionConfig = Pick<Config, 'planCheckin' | 'limits' | 'signinFailureLimits' | 'signinLinkLimits'>;

/** The longest window of the limits counted in `rate_limits`: no counter row outlives it. */
export function longestRateLimitWindow(): number {
  return Math.max(
    ...LIMIT_NAMES.filter((name) => LIMIT_RULES[name].mechanism === 'rate_limits').map(
      (name) => LIMIT_RULES[name].windowSeconds,
    ),
  );
}

export function retentionPeriods(cfg: RetentionConfig) {
  const counters = counterKeepSeconds(cfg);
  return [
    {
      id: 'signin_link',
      what: 'A sign-in link works for',
      seconds: SIGNIN_LINK_TTL_SECONDS,
      source: 'SIGNIN_LINK_TTL_SECONDS (lib/accounts/signin-links.ts)',
    },
    {
      id: 'not_me_link',
      what: 'The “This wasn’t me” link in a sign-in mail works for',
      seconds: NOT_ME_LINK_TTL_SECONDS,
      source: 'NOT_ME_LINK_TTL_SECONDS (lib/accounts/not-me-links.ts)',
    },
    {
      id: 'web_session',
      what: 'A web sign-in lasts',
      seconds: SESSION_MAX_AGE_SECONDS,
      source: 'SESSION_MAX_AGE_SECONDS (lib/accounts/sessions.ts)',
    },
    {
      id: 'fresh_signin',
      what: 'Deleting your account without your password works within this of signing in',
      seconds: FRESH_SIGNIN_SECONDS,
      source: 'FRESH_SIGNIN_SECONDS (lib/accounts/delete.ts)',
    },
    {
      id: 'oauth_access_token',
      what: 'An assistant’s OAuth access token lasts',
      seconds: OAUTH_TTL_SECONDS.AccessToken,
      source: 'OAUTH_TTL_SECONDS.AccessToken (lib/oauth/provider.ts)',
    },
    {
      id: 'oauth_refresh_token',
      what: 'An assistant’s OAuth refresh token, unused, stops working after',
      seconds: OAUTH_TTL_SECONDS.RefreshToken,
      source: 'OAUTH_TTL_SECONDS.RefreshToken (lib/oauth/provider.ts)',
    },
    {
      id: 'oauth_grant',
      what: 'An OAuth connection you approved ends, unless you end it sooner, after',
      seconds: OAUTH_TTL_SECONDS.Grant,
      source: 'OAUTH_TTL_SECONDS.Grant (lib/oauth/provider.ts)',
    },
    {
      id: 'person_confirmation',
      what: 'A Send or Accept button your assistant shows you works for',
      seconds: CONFIRMATION_TTL_MS / 1000,
      source: 'CONFIRMATION_TTL_MS (lib/mcp/person-confirm.ts)',
    },
    {
      id: 'idempotency',
      what: 'The stored answer to a request an assistant may retry is kept for',
      seconds: IDEMPOTENCY_TTL_SECONDS,
      source: 'IDEMPOTENCY_TTL_SECONDS (lib/http/idempotency.ts)',
    },
    {
      id: 'share_page',
      what: 'A plan or meetup page you shared with a trusted contact stops working this long after it ends',
      seconds: SHARE_KEPT_HOURS * HOUR,
      source: 'SHARE_KEPT_HOURS (lib/plans/share.ts)',
    },
    {
      id: 'checkin_delay',
      what: 'With check-in on, “All good?” is asked this long after the start',
      seconds: cfg.planCheckin.delaySeconds,
      source: 'config().planCheckin.delaySeconds (PLAN_CHECKIN_DELAY)',
    },
    {
      id: 'checkin_answer',
      what: 'Your trusted contact is mailed if “All good?” has no answer within',
      seconds: cfg.planCheckin.answerSeconds,
      source: 'config().planCheckin.answerSeconds (PLAN_CHECKIN_ANSWER_WINDOW)',
    },
    {
      id: 'calendar_past',
      what: 'Past plans stay in your calendar feed for',
      seconds: PAST_KEPT_DAYS * DAY,
      source: 'PAST_KEPT_DAYS (lib/plans/calendar-feed.ts)',
    },
    {
      id: 'calendar_cancelled',
      what: 'Cancelled plans stay in your calendar feed, marked cancelled, for',
      seconds: CANCELLED_KEPT_DAYS * DAY,
      source: 'CANCELLED_KEPT_DAYS (lib/plans/calendar-feed.ts)',
    },
    {
      id: 'review_asked',
      what: '“Did you meet?” is asked after a plan for',
      seconds: REVIEW_ASKED_FOR_DAYS * DAY,
      source: 'REVIEW_ASKED_FOR_DAYS (lib/plans/reviews.ts)',
    },
    {
      id: 'no_show',
      what: 'A no-show reported by two people lowers that person in Discover for',
      seconds: NO_SHOW_WINDOW_DAYS * DAY,
      source: 'NO_SHOW_WINDOW_DAYS (lib/plans/reliability.ts)',
    },
    {
      id: 'web_push_held',
      what: 'A browser’s push service may hold a notification your device has not fetched for',
      seconds: WEB_PUSH_TTL_SECONDS,
      source: 'WEB_PUSH_TTL_SECONDS (lib/notifications/web-push.ts)',
    },
    {
      id: 'jobs_archived',
      what: 'A finished background task (a mail, a notification, a place lookup) is archived after',
      seconds: JOB_ARCHIVED_AFTER_SECONDS,
      source: 'JOB_ARCHIVED_AFTER_SECONDS (lib/jobs/boss.ts)',
    },
    {
      id: 'jobs_archive_kept',
      what: 'and then deleted from the archive after',
      seconds: JOB_ARCHIVE_KEPT_DAYS * DAY,
      source: 'JOB_ARCHIVE_KEPT_DAYS (lib/jobs/boss.ts)',
    },
    {
      id: 'rate_limit_counters',
      what: 'Counters that enforce limits (by account or network address) are deleted when their window ends, at most',
      seconds: longestRateLimitWindow(),
      source: 'the longest windowSeconds of the rate_limits limits (lib/limits/rules.ts)',
    },
    {
      id: 'registration_counter',
      what: 'The network address a sign-up came from is kept for',
      seconds: counters.registrations,
      source: 'counterKeepSeconds().registrations (lib/accounts/prune-counters.ts)',
    },
    {
      id: 'password_failures',
      what: 'A wrong password (the email typed and the network address) is kept for',
      seconds: counters.passwordFailures,
      source: 'counterKeepSeconds().passwordFailures (lib/accounts/prune-counters.ts)',
    },
    {
      id: 'link_requests',
      what: 'A request for a sign-in link (the email typed and the network address) is kept for',
      seconds: counters.linkRequests,
      source: 'counterKeepSeconds().linkRequests (lib/accounts/prune-counters.ts)',
    },
    {
      id: 'known_address',
      what: 'A network address you signed in from with your password is remembered for',
      seconds: counters.knownAddresses,
      source: 'counterKeepSeconds().knownAddresses (lib/accounts/prune-counters.ts)',
    },
  ] as const satisfies readonly RetentionPeriod[];
}

export type RetentionId = ReturnType<typeof retentionPeriods>[number]['id'];

/** "1 hour", "24 hours", "15 minutes", "30 days": whole days from two days up, else hours, minutes, seconds. */
export function periodInWords(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds >= 2 * DAY && seconds % DAY === 0) return unit(seconds / DAY, 'day');
  if (seconds >= HOUR && seconds % HOUR === 0) return unit(seconds / HOUR, 'hour');
  if (seconds >= MINUTE && seconds % MINUTE === 0) return unit(seconds / MINUTE, 'minute');
  return unit(seconds, 'second');
}

/** The table with each period in words, and one period's words by id, for the pages. */
export function retentionInWords(cfg: RetentionConfig) {
  const rows = retentionPeriods(cfg).map((row) => ({ ...row, words: periodInWords(row.seconds) }));
  const byId = new Map<string, string>(rows.map((row) => [row.id, row.words]));
  return { rows, period: (id: RetentionId) => byId.get(id)! };
}

// Importing feeds into the built-in directory: from a file or URL (npm run events:import,
// the EVENTS_FEEDS refresh job) and the bundled sample calendar.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '@/db';
import { logLine } from '@/lib/core/log';
import { readTextLimited } from '../read-limited';
import type { ImportWindow, ParsedFeed } from './draft';
import { looksLikeICalendar, parseICalendar } from './ics';
import { looksLikeJson, parseJsonFeed } from './json';
import { SAMPLE_SOURCE, replaceSourceEvents, toEventRows, type StoreResult } from './store';
import { addDays } from './time';

export { SAMPLE_SOURCE } from './store';

export interface ImportOptions {
  /** Source name; defaults to the URL's host and path or the file's name. */
  source?: string;
  /** City for events whose location names none (a venue's own calendar, say). */
  defaultCity?: string | null;
  horizonDays: number;
  now?: Date;
  fetchTimeoutMs?: number;
}

export interface ImportSummary extends StoreResult {
  source: string;
  cancelled: number;
  skipped: ParsedFeed['skipped'];
}

const MAX_FEED_BYTES = 20 * 1024 * 1024;
const SOURCE_PATTERN = /^[\w.:/@+-]{1,200}$/;

export function importWindow(now: Date, horizonDays: number): ImportWindow {
  // A day back keeps today's earlier events (and ones still running) in the feed.
  return { from: addDays(now, -1), to: addDays(now, horizonDays) };
}

/** Parses iCalendar or JSON, whichever the text is. */
export async function parseFeedText(text: string, window: ImportWindow): Promise<ParsedFeed> {
  if (looksLikeICalendar(text)) return parseICalendar(text, window);
  if (looksLikeJson(text)) return parseJsonFeed(text, window);
  throw new Error('The feed is neither iCalendar (BEGIN:VCALENDAR) nor JSON');
}

/** Reads, parses and stores one feed; the source's previous events are replaced. */
export async function importFeed(db: Database, location: string, options: ImportOptions): Promise<ImportSummary> {
  const source = options.source ?? defaultSourceName(location);
  if (!SOURCE_PATTERN.test(source)) throw new Error(`Invalid source name: ${source}`);
  const text = await readFeed(location, options.fetchTimeoutMs ?? 30_000);
  return importFeedText(db, source, text, options);
}

export async function importFeedText(
  db: Database,
  source: string,
  text: string,
  options: ImportOptions,
): Promise<ImportSummary> {
  const now = options.now ?? new Date();
  const parsed = await parseFeedText(text, importWindow(now, options.horizonDays));
  const scrapedAt = new Date();
  const rows = toEventRows(source, parsed.drafts, scrapedAt, options.defaultCity);
  const stored = await replaceSourceEvents(db, source, rows, scrapedAt);
  const summary = { source, cancelled: parsed.cancelled, skipped: parsed.skipped, ...stored };
  logLine({
    event: 'events_imported',
    source,
    upserted: stored.upserted,
    removed: stored.removed,
    cancelled: parsed.cancelled,
    skipped: parsed.skipped.length,
  });
  return summary;
}

/** "https://example.org/club/events.ics" -> "example.org/club/events.ics"; "./data/club.ics" -> "club". */
export function defaultSourceName(location: string): string {
  const url = asUrl(location);
  if (url && url.protocol !== 'file:') return `${url.host}${url.pathname}`.replace(/\/+$/, '').slice(0, 200);
  const file = url ? fileURLToPath(url) : location;
  return (
    path
      .basename(file)
      .replace(/\.(ics|ical|ifb|json)$/i, '')
      .replace(/[^\w.-]+/g, '-')
      .slice(0, 200) || 'feed'
  );
}

function asUrl(location: string): URL | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) return null;
  try {
    return new URL(location);
  } catch {
    return null;
  }
}

/** A local file or an http(s) URL, at most MAX_FEED_BYTES. */
export async function readFeed(location: string, timeoutMs: number): Promise<string> {
  const url = asUrl(location);
  if (!url || url.protocol === 'file:') {
    const file = url ? fileURLToPath(url) : location;
    const stat = await fs.stat(file);
    if (stat.size > MAX_FEED_BYTES) throw new Error(`${file} is larger than ${MAX_FEED_BYTES} bytes`);
    return fs.readFile(file, 'utf8');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`Unsupported feed URL scheme: ${url.protocol}`);
  const response = await fetch(url, {
    headers: {
      accept: 'text/calendar, application/json;q=0.9, */*;q=0.5',
      'user-agent': 'buddy-match-events-import/1.0',
    },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`${url.host} answered HTTP ${response.status}`);
  }
  return readTextLimited(response, MAX_FEED_BYTES, () => new Error(`The feed is larger than ${MAX_FEED_BYTES} bytes`));
}

// ---------------------------------------------------------------------------
// The sample calendar

export const SAMPLE_FILE = path.resolve(import.meta.dirname, '../../../db/seed/sample-events.ics');
/** The sample's dates are written in the week starting on this Monday... */
export const SAMPLE_ANCHOR_MONDAY = '2026-01-05';

/** ...and moved forward by whole weeks to the current one, so its one-off events stay ahead. */
export function shiftSampleCalendar(text: string, now: Date): string {
  const anchor = Date.parse(`${SAMPLE_ANCHOR_MONDAY}T00:00:00Z`);
  const weeks = Math.max(0, Math.floor((now.getTime() - anchor) / (7 * 86_400_000)));
  return shiftICalendarDates(text, weeks * 7);
}

const DATED_PROPERTY = /^(DTSTART|DTEND|EXDATE|RDATE|RECURRENCE-ID)([;:])/i;
const DATE_VALUE = /(\d{4})(\d{2})(\d{2})(?=T\d{6}Z?\b|\b)/g;

/** Moves every date in DTSTART/DTEND/EXDATE/RDATE/RECURRENCE-ID and RRULE UNTIL by `days`, keeping wall-clock times. */
export function shiftICalendarDates(text: string, days: number): string {
  if (days === 0) return text;
  const shift = (_match: string, y: string, m: string, d: string) => {
    const moved = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d) + days));
    return moved.toISOString().slice(0, 10).replace(/-/g, '');
  };
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (DATED_PROPERTY.test(line)) {
        const colon = line.indexOf(':');
        return line.slice(0, colon + 1) + line.slice(colon + 1).replace(DATE_VALUE, shift);
      }
      if (/^RRULE:/i.test(line))
        return line.replace(
          /(UNTIL=)(\d{4})(\d{2})(\d{2})/i,
          (_m, key: string, y: string, mo: string, d: string) => key + shift('', y, mo, d),
        );
      return line;
    })
    .join('\r\n');
}

export interface SampleOutcome {
  action: 'imported' | 'removed';
  events: number;
}

/**
 * The sample fills the directory only while it has no other events: imported
 * (and its dates refreshed) when enabled and nothing else is there, removed
 * otherwise. Real imports remove it too; removing it here as well settles a
 * sample import that raced a real one.
 */
export async function maintainSample(
  db: Database,
  options: { enabled: boolean; horizonDays: number; now?: Date },
): Promise<SampleOutcome> {
  const other = options.enabled
    ? await db.selectFrom('events').select('id').where('source', '!=', SAMPLE_SOURCE).limit(1).executeTakeFirst()
    : undefined;
  if (!options.enabled || other) {
    const removed = await db.deleteFrom('events').where('source', '=', SAMPLE_SOURCE).executeTakeFirst();
    return { action: 'removed', events: Number(removed.numDeletedRows) };
  }
  const now = options.now ?? new Date();
  const text = shiftSampleCalendar(await fs.readFile(SAMPLE_FILE, 'utf8'), now);
  const summary = await importFeedText(db, SAMPLE_SOURCE, text, { horizonDays: options.horizonDays, now });
  return { action: 'imported', events: summary.upserted };
}

export interface RefreshOptions {
  feeds: readonly string[];
  sample: boolean;
  horizonDays: number;
}

/**
 * The periodic job: re-imports every EVENTS_FEEDS entry ("name=url" names the
 * source), then looks after the sample. A broken feed does not stop the others;
 * the job fails at the end (and pg-boss retries it) if any did.
 */
export async function refreshDirectory(db: Database, options: RefreshOptions): Promise<ImportSummary[]> {
  const results: ImportSummary[] = [];
  const failures: string[] = [];
  for (const entry of options.feeds) {
    const { source, location } = parseFeedEntry(entry);
    try {
      results.push(await importFeed(db, location, { source, horizonDays: options.horizonDays }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      failures.push(`${source ?? defaultSourceName(location)}: ${reason}`);
      logLine({ event: 'events_feed_failed', source: source ?? defaultSourceName(location), reason });
    }
  }
  await maintainSample(db, { enabled: options.sample, horizonDays: options.horizonDays });
  if (failures.length > 0) throw new Error(`Some event feeds failed: ${failures.join('; ')}`);
  return results;
}

/** "club=https://example.org/cal.ics" names the source "club"; a bare URL or path is named after itself. */
export function parseFeedEntry(entry: string): { source: string | undefined; location: string } {
  const named = /^([\w.-]{1,100})=(.+)$/.exec(entry);
  return named ? { source: named[1], location: named[2]! } : { source: undefined, location: entry };
}

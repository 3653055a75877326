// Keeping the built-in directory filled: the sample at start, EVENTS_FEEDS on a schedule.
import type { Database } from '@/db';
import { logError, logLine } from '../core/log';
import { getBoss, QUEUES } from '../jobs/boss';
import { maintainSample, refreshDirectory } from './import';

/** The events settings, read from the environment by lib/config.ts. */
export interface EventsConfig {
  /** Proxy mode when set: the feed is fetched from this URL with the caller's query appended. */
  upstreamUrl: string | undefined;
  upstreamTimeoutMs: number;
  /** How long an identical upstream query is served from memory before it is revalidated. */
  cacheSeconds: number;
  /** Upper bound of the in-memory answer cache, in bytes of upstream JSON (EVENTS_CACHE_MAX_MB). */
  cacheMaxBytes: number;
  /** iCalendar/JSON feeds (URLs or paths) the refresh job imports into the built-in directory. */
  feeds: string[];
  refreshCron: string;
  /** How far ahead recurring events are expanded into occurrences. */
  horizonDays: number;
  /** Import the bundled sample calendar while the directory has no other events. */
  sample: boolean;
}

/** At server start. In proxy mode the directory is unused, so nothing is imported or scheduled. */
export async function startEventsDirectory(db: Database, events: EventsConfig): Promise<void> {
  const boss = getBoss();
  if (events.upstreamUrl) {
    await boss.unschedule(QUEUES.eventsRefresh);
    return;
  }
  try {
    // Before serving, so a fresh start answers with the sample at once.
    const sample = await maintainSample(db, { enabled: events.sample, horizonDays: events.horizonDays });
    logLine({ event: 'events_sample', ...sample });
  } catch (error) {
    logError('events sample import failed', error);
  }
  // Also when EVENTS_FEEDS is empty: the refresh moves the sample's dates along.
  await boss.schedule(QUEUES.eventsRefresh, events.refreshCron, {});
  if (events.feeds.length > 0) await boss.send(QUEUES.eventsRefresh, {});
}

export async function runEventsRefresh(db: Database, events: EventsConfig): Promise<void> {
  if (events.upstreamUrl) return;
  await refreshDirectory(db, { feeds: events.feeds, sample: events.sample, horizonDays: events.horizonDays });
}

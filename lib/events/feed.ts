// GET /api/v1/events.json and the MCP events tool: one entry point for both modes.
import type { Database } from '@/db';
import { EVENTS_QUERY_KEYS, type EventsFeed, type EventsQuery } from '../contract/events';
import { etagOf } from '../core/etag';
import { unknownNameFields } from '../contract/validation';
import { searchDirectory } from './directory';
import { fetchUpstreamFeed, STALE_WHILE_REVALIDATE_SECONDS, type UpstreamSettings } from './upstream';

export interface FeedSettings {
  /** Proxy mode when given; the built-in directory otherwise. */
  upstream?: UpstreamSettings;
}

export interface FeedAnswer {
  body: EventsFeed;
  etag: string;
  cacheControl: string;
}

/** Built-in answers change only when a feed is imported; a short max-age keeps imports visible. */
const DIRECTORY_MAX_AGE_SECONDS = 30;

export async function eventsFeed(db: Database, query: EventsQuery, settings: FeedSettings): Promise<FeedAnswer> {
  if (settings.upstream) {
    const answer = await fetchUpstreamFeed(settings.upstream, query);
    return {
      // The upstream's items are passed through unchanged; the envelope was checked.
      body: answer.body as unknown as EventsFeed,
      etag: answer.etag,
      cacheControl: `public, max-age=${answer.maxAgeSeconds}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`,
    };
  }
  const body: EventsFeed = await searchDirectory(db, query);
  // The built-in directory has no upstream to forward further parameters to: say so rather than ignore them.
  const unknown = unknownNameFields(Object.keys(query), EVENTS_QUERY_KEYS, 'parameter');
  if (Object.keys(unknown).length > 0) body.warnings = { unknown_parameters: unknown };
  return {
    body,
    etag: etagOf(JSON.stringify(body)),
    cacheControl: `public, max-age=${DIRECTORY_MAX_AGE_SECONDS}, stale-while-revalidate=${DIRECTORY_MAX_AGE_SECONDS}`,
  };
}

export function feedSettings(events: {
  upstreamUrl: string | undefined;
  upstreamTimeoutMs: number;
  cacheSeconds: number;
  cacheMaxBytes: number;
}): FeedSettings {
  return events.upstreamUrl
    ? {
        upstream: {
          url: events.upstreamUrl,
          timeoutMs: events.upstreamTimeoutMs,
          cacheSeconds: events.cacheSeconds,
          cacheMaxBytes: events.cacheMaxBytes,
        },
      }
    : {};
}

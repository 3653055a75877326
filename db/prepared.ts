// Named prepared statements for the few hot queries whose planning is a large share of
// their cost. Discover's two statements are long (CTEs, lateral reads, the score written
// out): at 2M people in one metro, parsing and planning them was about a quarter of a
// search's database CPU (docs/discover.md). A statement prepared once per connection is
// parsed once, and PostgreSQL moves it to a generic plan after five runs where that plan
// costs no more than the custom ones (plan_cache_mode = auto: its judgement, not forced).
//
// A named statement lives on one server connection. Behind a transaction pooler (PgBouncer
// in transaction mode, declared by setting DATABASE_DIRECT_URL) the next query may land on
// another connection, so there every statement stays unnamed, as before.
import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type pg from 'pg';

/** How a statement asks to be prepared: its text starts with this comment. */
export const PREPARED_MARK = '/* prepared */';

/**
 * Statements one connection prepares at most. A statement's text is its shape (values are
 * parameters), and Discover has a few dozen shapes in use (activities searched, filters set);
 * past this, a new shape runs unnamed, so a connection's plans stay bounded in memory.
 */
export const MAX_PREPARED_PER_CONNECTION = 48;

/** `query`, marked to be prepared by name on connections that allow it. */
export function prepared<T>(query: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(PREPARED_MARK)} ${query}`;
}

/** The statement's name: its text's hash, so one text has one name on every connection. */
export function statementName(text: string): string {
  return `p_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Each connection of `pool` runs marked statements by name (the first MAX_PREPARED_PER_CONNECTION shapes). */
export function prepareMarkedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const named = new Set<string>();
    const target = client as unknown as { query: Query };
    const query = target.query.bind(client) as Query;
    target.query = (config, values, callback) => {
      if (typeof config === 'string' && config.startsWith(PREPARED_MARK)) {
        const name = statementName(config);
        if (named.has(name) || named.size < MAX_PREPARED_PER_CONNECTION) {
          named.add(name);
          return query({ name, text: config, values }, callback);
        }
      }
      return query(config, values, callback);
    };
  });
}

// Named prepared statements for the few hot queries whose planning is a large share of
// their cost. Discover's two statements are long (CTEs, lateral reads, the score written
// out): at 2M people in one metro, parsing and planning them was about a quarter of a
// search's database CPU (docs/discover.md). A statement prepared once per connection is
// parsed once, and PostgreSQL moves it to a generic plan after five runs where that plan
// costs no more than the custom ones (plan_cache_mode = auto: its judgement), or from the
// first run for a statement marked `generic` (see GENERIC_MARK).
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

/**
 * How a statement asks for its generic plan from the first run: a shape whose custom plans
 * PostgreSQL keeps re-planning (it judges the generic one dearer on estimates, while it runs no
 * slower) and whose planning is a large share of its cost. plan_cache_mode applies to every
 * statement run while it is set, unnamed ones too (measured: a skewed column's unnamed query
 * went from 0.3 ms to 70 ms under force_generic_plan), so it is set just before such a
 * statement and reset before the connection's next other one.
 */
export const GENERIC_MARK = '/* prepared generic */';

/** `query`, marked to be prepared by name on connections that allow it; `generic`: planned generically from the first run. */
export function prepared<T>(query: RawBuilder<T>, plan: 'auto' | 'generic' = 'auto'): RawBuilder<T> {
  return sql<T>`${sql.raw(plan === 'generic' ? GENERIC_MARK : PREPARED_MARK)} ${query}`;
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
    // Whether this connection has force_generic_plan set. The SET and RESET are queued ahead of
    // the statement on the same connection (the client runs its queries in order). A transaction
    // rolled back can only undo them back to auto, the harmless side: every BEGIN is preceded by a RESET.
    let generic = false;
    const planMode = (wanted: boolean) => {
      if (wanted === generic) return;
      generic = wanted;
      (query(wanted ? 'set plan_cache_mode = force_generic_plan' : 'reset plan_cache_mode') as Promise<unknown>).catch(
        () => {}, // the statement queued behind it reports the connection's trouble
      );
    };
    target.query = (config, values, callback) => {
      const text = typeof config === 'string' ? config : null;
      const mark = text?.startsWith(GENERIC_MARK) ? 'generic' : text?.startsWith(PREPARED_MARK) ? 'auto' : null;
      if (text && mark) {
        const name = statementName(text);
        if (named.has(name) || named.size < MAX_PREPARED_PER_CONNECTION) {
          named.add(name);
          planMode(mark === 'generic');
          return query({ name, text, values }, callback);
        }
      }
      planMode(false);
      return query(config, values, callback);
    };
  });
}

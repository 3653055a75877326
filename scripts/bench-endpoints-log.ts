// Pure helpers of `npm run bench:endpoints`: reading the statements a request ran out of
// PostgreSQL's log (log_statement=all, on stderr), and the percentiles the table prints.

/** One statement as a backend ran it: its session (one connection), text and parameters. */
export interface LoggedStatement {
  session: string;
  sql: string;
  params: (string | null)[];
}

/**
 * The log_line_prefix the benchmark sets, so each line names its session, database and
 * application: `<time>|<session>|<database>|<application>|`.
 */
export const LOG_LINE_PREFIX = '%m|%c|%d|%a|';
const RECORD = /^\d{4}-\d\d-\d\d [\d:.]+ \w+\|([^|]*)\|([^|]*)\|([^|]*)\|(\w+): {2}([\s\S]*)$/;

interface LogRecord {
  session: string;
  database: string;
  application: string;
  level: string;
  text: string;
}

/** PostgreSQL's stderr log as records; a message's further lines start with a tab. */
export function logRecords(log: string): LogRecord[] {
  const records: LogRecord[] = [];
  for (const line of log.split('\n')) {
    const match = RECORD.exec(line);
    if (match) {
      records.push({
        session: match[1]!,
        database: match[2]!,
        application: match[3]!,
        level: match[4]!,
        text: match[5]!,
      });
    } else if (line.startsWith('\t') && records.length) records.at(-1)!.text += `\n${line.slice(1)}`;
  }
  return records;
}

/** `Parameters: $1 = 'a''b', $2 = NULL` → ["a'b", null]. */
export function parseParameters(detail: string): (string | null)[] {
  const out: (string | null)[] = [];
  const body = detail.replace(/^Parameters: /, '');
  const item = /\$(\d+) = (NULL|'((?:[^']|'')*)')(?:, |$)/gy;
  for (let match = item.exec(body); match; match = item.exec(body)) {
    out[Number(match[1]) - 1] = match[2] === 'NULL' ? null : match[3]!.replaceAll("''", "'");
  }
  return out;
}

/**
 * The statements of one database's sessions (log_statement=all), in log order, leaving
 * out the benchmark's own connection (by application_name) and pg-boss's housekeeping.
 */
export function loggedStatements(
  log: string,
  { database, skipApplication }: { database: string; skipApplication: string },
): LoggedStatement[] {
  const out: LoggedStatement[] = [];
  const last = new Map<string, LoggedStatement>();
  for (const record of logRecords(log)) {
    if (record.database !== database || record.application === skipApplication) continue;
    if (record.level === 'DETAIL' && record.text.startsWith('Parameters: ')) {
      const statement = last.get(record.session);
      if (statement) statement.params = parseParameters(record.text);
      continue;
    }
    const match = record.level === 'LOG' ? /^(?:statement|execute [^:]+): ([\s\S]*)$/.exec(record.text) : null;
    last.delete(record.session);
    if (!match || /\bpgboss\b/.test(match[1]!)) continue;
    const statement = { session: record.session, sql: match[1]!, params: [] };
    last.set(record.session, statement);
    out.push(statement);
  }
  return out;
}

/** The p-th percentile (nearest rank) of samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

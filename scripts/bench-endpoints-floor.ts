// The floor for `npm run bench:endpoints`: a bare node:http + pg server that answers a
// request by running the statements the real server ran for it (captured from
// PostgreSQL's log), each captured session on one pooled connection (so a transaction
// stays on its connection), sessions side by side, and returns their rows as JSON.
// No framework, no auth code, no validation: what Node and the database cost alone.
// Cases arrive as JSON on `PUT /__cases`; `/<case>` (any method) replays one.
import http from 'node:http';
import pg from 'pg';
import type { LoggedStatement } from './bench-endpoints-log';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
let cases: Record<string, LoggedStatement[][]> = {};

async function replay(sessions: LoggedStatement[][]): Promise<unknown[]> {
  return Promise.all(
    sessions.map(async (statements) => {
      const client = await pool.connect();
      try {
        const rows: unknown[] = [];
        for (const s of statements) rows.push((await client.query(s.sql, s.params)).rows);
        return rows;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    }),
  );
}

const server = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    if (req.url === '/__cases') {
      cases = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof cases;
      res.writeHead(204).end();
      return;
    }
    const sessions = cases[decodeURIComponent((req.url ?? '/').slice(1))];
    if (!sessions) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.stringify(await replay(sessions));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('floor listening\n'));
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});

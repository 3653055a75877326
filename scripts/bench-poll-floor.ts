// The floor for `npm run bench:poll`: a bare node:http + pg server that runs the
// same four statements as a full inbox poll (the token lookup and the inbox's three
// queries, compiled by the app's own query builders) and returns their rows as JSON.
// No framework, no validation, no ETag: what the database and Node cost alone.
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { createDb } from '../db';
import { defaultSince, inboxQueries } from '../lib/inbox/inbox';

const VIEWER = '00000000-0000-4000-8000-00000000beef';
const SINCE = new Date(0);

const db = createDb(process.env.DATABASE_URL!, 1);
const compiled = Object.values(inboxQueries(db, VIEWER, SINCE)).map((q) => q.compile());
await db.destroy();
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const TOKEN_SQL =
  'select t.id, t.user_id, t.scopes, t.last_used_at from access_tokens t join users u on u.id = t.user_id ' +
  'where t.token_hash = $1 and t.revoked_at is null and u.disabled_at is null';

const server = http.createServer(async (req, res) => {
  try {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const owner = await pool.query(TOKEN_SQL, [createHash('sha256').update(token).digest()]);
    const userId = owner.rows[0]?.user_id as string | undefined;
    if (!userId) {
      res.writeHead(401).end();
      return;
    }
    const since = defaultSince(new Date());
    const params = (values: readonly unknown[]) => values.map((v) => (v === VIEWER ? userId : v === SINCE ? since : v));
    const [pending, accepted, chats] = await Promise.all(compiled.map((q) => pool.query(q.sql, params(q.parameters))));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ pending: pending!.rows, accepted: accepted!.rows, chats: chats!.rows }));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('floor listening\n'));
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});

import { sql } from 'kysely';
import { getDb } from '@/db';
import { json } from '@/lib/http/route';

// GET /api/health – 200 when the database answers, 503 otherwise
export async function GET(): Promise<Response> {
  try {
    await sql`select 1`.execute(getDb());
    return json({ ok: true, db: 'up' }, 200, { 'cache-control': 'no-store' });
  } catch {
    return json({ ok: false, db: 'down' }, 503, { 'cache-control': 'no-store', 'retry-after': '5' });
  }
}

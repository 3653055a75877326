import { sql } from 'kysely';
import { getDb } from '@/db';
import { replicaMetrics, replicasConfigured } from '@/db/replicas';
import { json } from '@/lib/http/route';

// GET /api/health – 200 when the database answers, 503 otherwise; with read replicas, each
// one's state and counters (db/replicas.ts): no connection string, only replica-1, replica-2…
export async function GET(): Promise<Response> {
  const replicas = replicasConfigured() ? replicaMetrics() : {};
  try {
    await sql`select 1`.execute(getDb());
    return json({ ok: true, db: 'up', ...replicas }, 200, { 'cache-control': 'no-store' });
  } catch {
    return json({ ok: false, db: 'down', ...replicas }, 503, { 'cache-control': 'no-store', 'retry-after': '5' });
  }
}

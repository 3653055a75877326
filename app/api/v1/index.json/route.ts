import { endpoints } from '@/lib/contract';
import * as meta from '@/lib/contract/meta';
import { buildIndex } from '@/lib/docs/index-document';
import { Reply, route } from '@/lib/http/route';

// GET /api/v1/index.json – every endpoint, generated from the contract
export const GET = route(
  meta.getIndex,
  async ({ baseUrl }) =>
    new Reply(buildIndex(endpoints, baseUrl), { headers: { 'cache-control': 'public, max-age=300' } }),
);

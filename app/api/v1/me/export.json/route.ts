import { exportAccountData } from '@/lib/accounts/export';
import * as signin from '@/lib/contract/signin';
import { fullAccessOnly, Reply, route } from '@/lib/http/route';

// GET /api/v1/me/export.json – everything held about the caller, as a file to keep (GDPR Art. 20)
export const GET = route(signin.exportMyData, async ({ db, auth, baseUrl }) => {
  const data = await exportAccountData(db, fullAccessOnly(auth), baseUrl);
  const day = data.exported_at.slice(0, 10);
  return new Reply(data, {
    headers: {
      'content-disposition': `attachment; filename="buddy-match-data-${day}.json"`,
      'cache-control': 'private, no-store',
    },
  });
});

import * as webApp from '@/lib/contract/web-app';
import { ApiError } from '@/lib/http/errors';
import { route } from '@/lib/http/route';
import { loadUnsubscribeKey, setMailPreferences, unsubscribeTokenOwner } from '@/lib/notifications/mail-preferences';

// POST /api/v1/mail/unsubscribe.json?token= – RFC 8058 one-click (List-Unsubscribe-Post): all optional mail off
export const POST = route(webApp.unsubscribeMail, async ({ db, query }) => {
  const userId = unsubscribeTokenOwner(await loadUnsubscribeKey(db), query.token);
  if (!userId) throw new ApiError('not_found', 'This unsubscribe link is not valid', {
    hint: 'Turn mail off in /account/settings.',
  });
  return setMailPreferences(db, userId, { reminders: false, checkins: false, digests: false });
});

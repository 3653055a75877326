import * as webApp from '@/lib/contract/web-app';
import { ApiError } from '@/lib/core/errors';
import { route } from '@/lib/http/route';
import { loadUnsubscribeKey, unsubscribeEverything } from '@/lib/notifications/mail-preferences';

// POST /api/v1/mail/unsubscribe.json?token= – RFC 8058 one-click (List-Unsubscribe-Post): all optional mail off
// (a trusted contact's token, who is no member, suppresses that address).
export const POST = route(webApp.unsubscribeMail, async ({ db, query }) => {
  const done = await unsubscribeEverything(db, await loadUnsubscribeKey(db), query.token);
  if (!done)
    throw new ApiError('not_found', 'This unsubscribe link is not valid', {
      hint: 'Turn mail off in /account/settings.',
    });
  return done;
});

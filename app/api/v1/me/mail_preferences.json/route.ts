import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { mailPreferences, setMailPreferences } from '@/lib/notifications/mail-preferences';

// GET /api/v1/me/mail_preferences.json – which optional mail the person gets (settings page)
export const GET = route(webApp.getMailPreferences, async ({ db, auth }) => mailPreferences(db, auth.userId));

// PATCH – turn reminders, check-ins or digests on or off
export const PATCH = route(webApp.updateMailPreferences, async ({ db, auth, body }) =>
  setMailPreferences(db, auth.userId, body),
);

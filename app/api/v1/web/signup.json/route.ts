import { precheckRegistrationLimit, registerPersonOnWeb, registrationLimitHeaders } from '@/lib/accounts/register';
import { config } from '@/lib/config';
import * as webApp from '@/lib/contract/web-app';
import { Reply, route } from '@/lib/http/route';
import { photoServicesFrom } from '@/lib/photos/services';

// POST /api/v1/web/signup.json – the /signup form: an account, and no assistant key
export const POST = route(
  webApp.webSignup,
  async ({ db, body, ip, baseUrl, normalized }) => {
    const limitPerHour = config().registrationLimitPerHour;
    const registered = await registerPersonOnWeb(db, body, {
      ip,
      baseUrl,
      limitPerHour,
      photoUploadLimit: config().rateLimits.photo_upload,
      geocoderEnabled: !!config().geocoderUrl,
      photos: photoServicesFrom(config()),
      normalized,
    });
    return new Reply(registered, { headers: await registrationLimitHeaders(db, ip, limitPerHour) });
  },
  { beforeParsing: ({ db, ip }) => precheckRegistrationLimit(db, ip, config().registrationLimitPerHour) },
);

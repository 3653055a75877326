import { precheckRegistrationLimit, registerUser, registrationLimitHeaders } from '@/lib/accounts/register';
import { config } from '@/lib/config';
import * as accounts from '@/lib/contract/accounts';
import * as meta from '@/lib/contract/meta';
import { buildSignupInstructions } from '@/lib/docs/index-document';
import { Reply, route } from '@/lib/http/route';
import { photoServicesFrom } from '@/lib/photos/services';

// GET /api/v1/register.json – signup instructions and the body's JSON Schema
export const GET = route(meta.getRegisterInstructions, async ({ baseUrl }) =>
  new Reply(
    buildSignupInstructions(baseUrl, {
      registrationsPerHour: config().registrationLimitPerHour,
      photoUploadsPerHour: config().rateLimits.photo_upload.points,
    }),
    { headers: { 'cache-control': 'public, max-age=300' } },
  ),
);

// POST /api/v1/register.json – create an account
export const POST = route(
  accounts.register,
  async ({ db, body, ip, baseUrl, normalized }) => {
    const limitPerHour = config().registrationLimitPerHour;
    const registered = await registerUser(db, body, {
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
  // An address at its limit is refused before its (up to 7 MB) body is even read.
  { beforeParsing: ({ db, ip }) => precheckRegistrationLimit(db, ip, config().registrationLimitPerHour) },
);

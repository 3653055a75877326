import { precheckRegistrationLimit, registerUser } from '@/lib/accounts/register';
import { config } from '@/lib/config';
import { register } from '@/lib/contract/accounts';
import { getRegisterInstructions } from '@/lib/contract/meta';
import { buildSignupInstructions } from '@/lib/docs/index-document';
import { Reply, route } from '@/lib/http/route';
import { photoServicesFrom } from '@/lib/photos/services';

// GET /api/v1/register.json – signup instructions and the body's JSON Schema
export const GET = route(getRegisterInstructions, async ({ baseUrl }) =>
  new Reply(buildSignupInstructions(baseUrl), { headers: { 'cache-control': 'public, max-age=300' } }),
);

// POST /api/v1/register.json – create an account
export const POST = route(
  register,
  async ({ db, body, ip, baseUrl }) =>
    registerUser(db, body, {
      ip,
      baseUrl,
      limitPerHour: config().registrationLimitPerHour,
      photoUploadLimit: config().rateLimits.photo_upload,
      geocoderEnabled: !!config().geocoderUrl,
      photos: photoServicesFrom(config()),
    }),
  // An address at its limit is refused before its (up to 7 MB) body is even read.
  { beforeParsing: ({ db, ip }) => precheckRegistrationLimit(db, ip, config().registrationLimitPerHour) },
);

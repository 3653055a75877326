import { registerUser } from '@/lib/accounts/register';
import { registrationPrecheck, replyToRegistration } from '@/app/api/registration-route';
import { config } from '@/lib/config';
import * as accounts from '@/lib/contract/accounts';
import * as meta from '@/lib/contract/meta';
import { buildSignupInstructions } from '@/lib/docs/index-document';
import { Reply, route } from '@/lib/http/route';

// GET /api/v1/register.json – signup instructions and the body's JSON Schema
export const GET = route(
  meta.getRegisterInstructions,
  async ({ baseUrl }) =>
    new Reply(
      buildSignupInstructions(baseUrl, {
        registrationsPerHour: config().limits.registrations.points,
        photoUploadsPerHour: config().rateLimits.photo_upload.points,
      }),
      { headers: { 'cache-control': 'public, max-age=300' } },
    ),
);

// POST /api/v1/register.json – create an account
export const POST = route(
  accounts.register,
  async (call) => replyToRegistration(call, registerUser),
  registrationPrecheck,
);

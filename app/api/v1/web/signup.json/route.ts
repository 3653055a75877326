import { registerPersonOnWeb } from '@/lib/accounts/register';
import { registrationPrecheck, replyToRegistration } from '@/app/api/registration-route';
import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';

// POST /api/v1/web/signup.json – the /signup form: an account, and no assistant key
export const POST = route(
  webApp.webSignup,
  async (call) => replyToRegistration(call, registerPersonOnWeb),
  registrationPrecheck,
);

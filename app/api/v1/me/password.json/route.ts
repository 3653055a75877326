import { changePassword } from '@/lib/accounts/password';
import { config } from '@/lib/config';
import * as signin from '@/lib/contract/signin';
import { route } from '@/lib/http/route';

// POST /api/v1/me/password.json – change the password (needs the current one)
export const POST = route(signin.changePassword, async ({ db, auth, body, ip }) => {
  const keepSessionId = auth.via === 'session' ? auth.sessionId : null;
  const result = await changePassword(db, auth.userId, body, {
    ip,
    keepSessionId,
    limits: config().signinFailureLimits,
  });
  return {
    success: true as const,
    signed_out_sessions: result.signedOutSessions,
    revoked_tokens: result.revokedTokens,
  };
});

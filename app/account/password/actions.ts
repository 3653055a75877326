'use server';
import { headers } from 'next/headers';
import { getDb } from '@/db';
import { changePassword } from '@/lib/accounts/password';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { changePasswordBodySchema } from '@/lib/contract/signin';
import { ApiError } from '@/lib/core/errors';
import type { PasswordFormState } from '@/app/_components/password-form';
import { clientIpFromHeaders } from '@/lib/http/ip';
import { issuesToFields } from '@/lib/contract/validation';

export type { PasswordFormState };

// Same rules as POST /api/v1/me/password.json: the contract's schema, the same domain call.
export async function changePasswordAction(
  _previous: PasswordFormState,
  formData: FormData,
): Promise<PasswordFormState> {
  const { session } = await requireSession('/account/password');
  const currentPassword = String(formData.get('currentPassword') ?? '');
  const newPassword = String(formData.get('newPassword') ?? '');
  if (newPassword !== String(formData.get('confirmPassword') ?? '')) {
    return {
      ok: false,
      message: 'The two new passwords are different.',
      fields: { confirmPassword: 'Type the same new password twice' },
    };
  }
  const revokeAllTokens = formData.get('revokeAllTokens') === 'on';
  const parsed = changePasswordBodySchema.safeParse({ currentPassword, newPassword, revokeAllTokens });
  if (!parsed.success)
    return {
      ok: false,
      message: 'Please fix the fields marked below.',
      fields: forTheForm(issuesToFields(parsed.error.issues)),
    };
  try {
    const ip = clientIpFromHeaders(await headers());
    const { signedOutSessions, revokedTokens } = await changePassword(getDb(), session.userId, parsed.data, {
      ip,
      keepSessionId: session.sessionId,
      limits: config().signinFailureLimits,
    });
    return {
      ok: true,
      message: passwordChangedMessage(signedOutSessions, revokeAllTokens ? revokedTokens : null),
      fields: {},
    };
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'wrong_password' || error.code === 'rate_limited')) {
      return { ok: false, message: error.message, fields: forTheForm(error.fields ?? {}) };
    }
    throw error;
  }
}

/** Field maps are null-prototype objects (a caller's word never meets Object.prototype);
 * React cannot send those to a client component, so the form gets a plain copy. */
function forTheForm(fields: Record<string, string>): Record<string, string> {
  return { ...fields };
}

/** What happened, in plain words: `revokedTokens` is null when the person kept their assistants' access. */
function passwordChangedMessage(signedOutSessions: number, revokedTokens: number | null): string {
  const others =
    signedOutSessions === 0
      ? revokedTokens === null
        ? ''
        : ' No other browser was signed in.'
      : ` ${signedOutSessions} other sign-in${signedOutSessions === 1 ? ' was' : 's were'} signed out.`;
  const assistants =
    revokedTokens === null
      ? ' Assistants keep their access; manage it under Connected assistants.'
      : revokedTokens === 0
        ? ' No assistant held a token.'
        : ` ${revokedTokens === 1 ? 'The one assistant token was' : `All ${revokedTokens} assistant tokens were`} revoked: no assistant can act for you until it is given access again.`;
  return `Your password is changed.${others}${assistants}`;
}

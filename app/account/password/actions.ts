'use server';
import { headers } from 'next/headers';
import { getDb } from '@/db';
import { changePassword } from '@/lib/accounts/password';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { changePasswordBodySchema } from '@/lib/contract/signin';
import { ApiError } from '@/lib/http/errors';
import { clientIpFromHeaders } from '@/lib/http/ip';
import { issuesToFields } from '@/lib/http/validation';

export interface PasswordFormState {
  ok: boolean;
  message: string | null;
  fields: Record<string, string>;
}

// Same rules as POST /api/v1/me/password.json: the contract's schema, the same domain call.
export async function changePasswordAction(_previous: PasswordFormState, formData: FormData): Promise<PasswordFormState> {
  const { session } = await requireSession('/account/password');
  const currentPassword = String(formData.get('currentPassword') ?? '');
  const newPassword = String(formData.get('newPassword') ?? '');
  if (newPassword !== String(formData.get('confirmPassword') ?? '')) {
    return { ok: false, message: 'The two new passwords are different.', fields: { confirmPassword: 'must match the new password' } };
  }
  const parsed = changePasswordBodySchema.safeParse({ currentPassword, newPassword });
  if (!parsed.success) return { ok: false, message: 'Please fix the fields marked below.', fields: issuesToFields(parsed.error.issues) };
  try {
    const ip = clientIpFromHeaders(await headers());
    const { signedOutSessions } = await changePassword(getDb(), session.userId, parsed.data, {
      ip,
      keepSessionId: session.sessionId,
      limits: config().signinFailureLimits,
    });
    const others = signedOutSessions === 0 ? '' : ` ${signedOutSessions} other sign-in${signedOutSessions === 1 ? ' was' : 's were'} signed out.`;
    return { ok: true, message: `Your password is changed.${others}`, fields: {} };
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'wrong_password' || error.code === 'rate_limited')) {
      return { ok: false, message: error.message, fields: error.fields ?? {} };
    }
    throw error;
  }
}

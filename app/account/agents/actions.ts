'use server';
// Keep, revoke or disconnect, from /account/agents. Server actions are POSTs that Next.js
// accepts only from this site's own pages (it compares Origin with Host), and each
// re-checks the session. Deliberately not an API endpoint: the point is that the person,
// not an assistant holding a token, decides which assistants keep access.
import { revalidatePath } from 'next/cache';
import { cookies } from 'next/headers';
import { getDb } from '@/db';
import { confirmAccessToken, revokeAccessToken } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { AGENTS_NOTICE_COOKIE } from '@/lib/web/agents-notice';
import { ApiError } from '@/lib/core/errors';

/**
 * A token id that is not one of this account's (a forged or stale form, or one revoked
 * meanwhile in another tab) changes nothing; the page shows the tokens as they are.
 * Thrown, it was a 500.
 */
async function unlessGone(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
  }
}

export async function keepTokenAction(formData: FormData): Promise<void> {
  const { user } = await requireSession('/account/agents');
  await unlessGone(() =>
    confirmAccessToken(getDb(), { userId: user.id, tokenId: String(formData.get('tokenId') ?? '') }),
  );
  revalidatePath('/account', 'layout');
}

/** Revokes one connection (the first-sign-in question's Revoke, and each connection's Disconnect). */
export async function revokeTokenAction(formData: FormData): Promise<void> {
  const { user } = await requireSession('/account/agents');
  await unlessGone(() =>
    revokeAccessToken(getDb(), { userId: user.id, tokenId: String(formData.get('tokenId') ?? '') }),
  );
  revalidatePath('/account', 'layout');
}

/**
 * "Not now" on the home screen's "Check who can act for you" (issue 46 §2: once, dismissible): the
 * notice stays away until an assistant newer than the ones it named holds access.
 */
export async function dismissAgentsNoticeAction(formData: FormData): Promise<void> {
  await requireSession('/account');
  const newest = Number(formData.get('newest'));
  if (!Number.isSafeInteger(newest) || newest <= 0) return;
  (await cookies()).set(AGENTS_NOTICE_COOKIE, String(newest), {
    httpOnly: true,
    sameSite: 'lax',
    secure: new URL(config().publicBaseUrl).protocol === 'https:',
    path: '/account',
    maxAge: 365 * 24 * 3600,
  });
  revalidatePath('/account');
}

'use server';
// Keep or revoke, from the confirmation list on /account/agents. Server actions are POSTs
// that Next.js accepts only from this site's own pages, and each re-checks the session.
// Deliberately not an API endpoint: the point is that the person, not an assistant
// holding a token, decides which assistants keep access.
import { revalidatePath } from 'next/cache';
import { getDb } from '@/db';
import { confirmAccessToken, revokeAccessToken } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { ApiError } from '@/lib/http/errors';

/** A token revoked meanwhile (in another tab, by an agent) is simply gone from the list on reload. */
async function unlessGone(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
  }
}

export async function keepTokenAction(formData: FormData): Promise<void> {
  const { user } = await requireSession('/account/agents');
  await unlessGone(() => confirmAccessToken(getDb(), user.id, String(formData.get('tokenId') ?? '')));
  revalidatePath('/account', 'layout');
}

export async function revokeUnconfirmedTokenAction(formData: FormData): Promise<void> {
  const { user } = await requireSession('/account/agents');
  await unlessGone(() => revokeAccessToken(getDb(), user.id, String(formData.get('tokenId') ?? '')));
  revalidatePath('/account', 'layout');
}

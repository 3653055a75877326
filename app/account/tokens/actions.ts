'use server';
// Server actions are POSTs that Next.js accepts only from this site's own pages (it
// compares Origin with Host), and each re-checks the session itself.
import { revalidatePath } from 'next/cache';
import { getDb } from '@/db';
import { revokeAccessToken } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { ApiError } from '@/lib/http/errors';

export async function revokeTokenAction(formData: FormData): Promise<void> {
  const { user } = await requireSession('/account/tokens');
  const tokenId = String(formData.get('tokenId') ?? '');
  try {
    await revokeAccessToken(getDb(), user.id, tokenId);
  } catch (error) {
    // A token id that is not one of this account's (a forged or stale form) changes
    // nothing; the page below shows the tokens as they are. Thrown, it was a 500.
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
  }
  revalidatePath('/account/tokens');
}

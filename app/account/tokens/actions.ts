'use server';
// Server actions are POSTs that Next.js accepts only from this site's own pages (it
// compares Origin with Host), and each re-checks the session itself.
import { revalidatePath } from 'next/cache';
import { getDb } from '@/db';
import { revokeAccessToken } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';

export async function revokeTokenAction(formData: FormData): Promise<void> {
  const { user } = await requireSession('/account/tokens');
  const tokenId = String(formData.get('tokenId') ?? '');
  await revokeAccessToken(getDb(), user.id, tokenId);
  revalidatePath('/account/tokens');
}

import type { Metadata } from 'next';
import { requireSession } from '@/lib/auth/session';
import { safeReturnPath } from '@/lib/http/return-path';
import { AddPhotoStep } from '@/app/_components/add-photo-step';

export const metadata: Metadata = { title: 'Add a photo' };

// GET /account/photo?return=/account/discover – the one step a profile without a photo
// needs, instead of the whole profile form; Save goes back to where the person came from.
export default async function AddPhotoPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const returnTo = safeReturnPath((await searchParams).return, '/account');
  const { user } = await requireSession(`/account/photo?return=${encodeURIComponent(returnTo)}`);
  return (
    <div className="narrow stack">
      <h1>Add a photo</h1>
      <p className="muted">
        People see your photo before they say hi. A clear photo of your face, on your own, works best.
      </p>
      <AddPhotoStep
        currentUrl={user.photo_url ? (user.thumbnail_url ?? user.photo_url) : null}
        name={user.display_name}
        returnTo={returnTo}
      />
      <noscript>
        <div className="notice notice-error">
          <p>Adding a photo needs JavaScript: it shows you the photo before it is sent. Turn it on and reload.</p>
        </div>
      </noscript>
    </div>
  );
}

import type { Metadata } from 'next';
import { getDb } from '@/db';
import { currentSession } from '@/lib/auth/session';
import { loadConsentRequest, SCOPE_WORDS } from '@/lib/oauth/consent';

export const metadata: Metadata = { title: 'Connect an assistant', robots: { index: false } };

// GET /oauth/interaction/{uid} – the one consent screen of the OAuth flow: the assistant's
// name and what it may do, in plain words. Signing in first comes back here.
export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const here = `/oauth/interaction/${uid}`;
  const [session, request] = await Promise.all([currentSession(), loadConsentRequest(getDb(), uid)]);
  if (!request) {
    return (
      <div className="narrow stack">
        <h1>This request has ended</h1>
        <p>It expired or was already answered. Go back to your assistant and connect Buddy Match again.</p>
      </div>
    );
  }
  if (!session) {
    // The authorize page is also the signup page: an assistant may bring someone new.
    const back = encodeURIComponent(here);
    return (
      <div className="narrow stack">
        <h1>Connect {request.clientName} to Buddy Match</h1>
        <p>
          <strong>{request.clientName}</strong> asks to act for you on Buddy Match, the app for finding people to do
          things with. Sign in, or create your account, then approve it.
        </p>
        <div className="actions">
          <a className="button" href={`/signin?callbackUrl=${back}`}>
            Sign in
          </a>
          <a className="button button-secondary" href={`/signup?callbackUrl=${back}`}>
            Create an account
          </a>
        </div>
      </div>
    );
  }
  return (
    <div className="narrow stack">
      <h1>Connect {request.clientName}?</h1>
      <p>
        <strong>{request.clientName}</strong> asks to act for you, <strong>{session.user.display_name}</strong> (
        {session.user.email}), on Buddy Match. It will be able to:
      </p>
      <ul aria-label="What it will be able to do">
        {request.scopes.map((scope) => (
          <li key={scope}>{SCOPE_WORDS[scope]}</li>
        ))}
      </ul>
      <p className="muted">
        {request.returnHost ? `You will go back to ${request.returnHost}. ` : ''}You can disconnect it any time in
        Settings, under <a href="/account/agents">Connected assistants</a>.
      </p>
      <div className="actions">
        <form method="post" action={`/oauth/interaction/${encodeURIComponent(uid)}/confirm`}>
          <button className="button" type="submit">
            Allow
          </button>
        </form>
        <form method="post" action={`/oauth/interaction/${encodeURIComponent(uid)}/abort`}>
          <button className="button button-secondary" type="submit">
            Deny
          </button>
        </form>
      </div>
    </div>
  );
}

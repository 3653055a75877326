import type { Metadata } from 'next';
import { getDb } from '@/db';
import { currentSession } from '@/lib/auth/session';
import type { ClientTrust } from '@/lib/oauth/client-trust';
import { loadConsentRequest, SCOPE_WORDS } from '@/lib/oauth/consent';
import { DEVICE_CLIENT_ID } from '@/lib/accounts/oauth-resources';
import { LEGAL_PATHS } from '@/lib/web/legal-paths';

/**
 * Who is asking, as far as Buddy Match can tell: verified only when a known assistant's own
 * host publishes the client (its metadata document); every other client is marked
 * unverified, louder when its name claims a known assistant or this service (issue 28).
 */
function ClientIdentity({ name, trust, device }: { name: string; trust: ClientTrust; device: boolean }) {
  if (device)
    return (
      <p>
        <span className="badge-unverified">Unverified</span> Buddy Match cannot tell which assistant or app asked for
        this code.
      </p>
    );
  if (trust.verified)
    return (
      <p>
        <span className="badge-verified">Verified</span> {trust.assistant}:{' '}
        {trust.by === 'metadata' ? `published by ${trust.host}` : `you go back to ${trust.host}`}.
      </p>
    );
  return (
    <>
      <p>
        <span className="badge-unverified">Unverified</span> Buddy Match cannot confirm who made “{name}”
        {trust.host ? `; it is published by ${trust.host}` : ''}. Apps choose their own names.
      </p>
      {trust.claimsAssistant ? (
        <p className="device-problem" role="alert">
          “{name}” is not confirmed to be the assistant or service it names. Allow it only if you started this yourself,
          just now.
        </p>
      ) : null}
    </>
  );
}

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
  // Device sign-in has no client name of its own: the page speaks of "your assistant" and the code.
  const device = request.clientId === DEVICE_CLIENT_ID;
  const who = device ? 'The assistant that showed you the code' : request.clientName;
  if (!session) {
    // The authorize page is also the signup page: an assistant may bring someone new.
    // Both go through lib/oauth/interaction.ts startSigninFor, which marks this browser
    // as signing in for this request, so any sign-in comes back here.
    return (
      <div className="narrow stack">
        <h1>{device ? 'Connect your assistant to Buddy Match' : `Connect ${request.clientName} to Buddy Match`}</h1>
        <p>
          <strong>{who}</strong> asks to act for you on Buddy Match, the app for finding people to do things with. Sign
          in, or create your account, then approve it.
        </p>
        <ClientIdentity name={request.clientName} trust={request.trust} device={device} />
        <div className="actions">
          <a className="button" href={`${here}/signin`}>
            Sign in
          </a>
          <a className="button button-secondary" href={`${here}/signup`}>
            Create an account
          </a>
        </div>
      </div>
    );
  }
  return (
    <div className="narrow stack">
      <h1>{device ? 'Connect your assistant?' : `Connect ${request.clientName}?`}</h1>
      <ClientIdentity name={request.clientName} trust={request.trust} device={device} />
      <p>
        <strong>{who}</strong> asks to act for you, <strong>{session.user.display_name}</strong> ({session.user.email}),
        on Buddy Match. It will be able to:
      </p>
      <ul aria-label="What it will be able to do">
        {request.scopes.map((scope) => (
          <li key={scope}>{SCOPE_WORDS[scope]}</li>
        ))}
      </ul>
      <p className="muted">
        {request.returnHost ? `You will go back to ${request.returnHost}. ` : ''}You can disconnect it any time in
        Settings, under <a href="/account/agents">Connected assistants</a>. What an assistant can and cannot do is in
        the <a href={`${LEGAL_PATHS.privacy}#assistants`}>privacy policy</a>; using it, you keep to the{' '}
        <a href={LEGAL_PATHS.terms}>terms of use</a>.
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

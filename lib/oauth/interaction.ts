// The consent form's answer. The person is signed in on this site (the Auth.js session
// cookie); "Allow" records one grant in oidc-provider and one connection row in
// access_tokens (listed and revocable in /account/agents, "Connected assistants"), then hands the browser back
// to the assistant with a code. "Deny" answers the assistant with access_denied.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getDb, type Database } from '@/db';
import { randomSecret, sha256 } from '../core/secrets';
import { findSession } from '../accounts/sessions';
import { readCookie, sessionCookieName, usesSecureCookies } from '../http/cookies';
import type { Scope } from '../contract/define';
import { requestedApiScopes } from './scopes';
import { config } from '../config';
import { logLine } from '../core/log';
import { whenGrantRevoked } from './adapter';
import { oauthProvider } from './provider';
import { consentPath, pendingAuthorizationCookie } from './pending-authorization';

export async function recordOauthConnection(
  db: Database,
  connection: { userId: string; clientId: string; clientName: string; grantId: string; scopes: readonly Scope[] },
): Promise<string> {
  const row = await db
    .insertInto('access_tokens')
    .values({
      user_id: connection.userId,
      // No bearer value exists for this row: OAuth access tokens are checked against it by grant.
      token_hash: sha256(randomSecret('bm_oauth_')),
      scopes: [...connection.scopes],
      label: 'Connected with OAuth',
      agent_name: connection.clientName,
      oauth_client_id: connection.clientId,
      oauth_grant_id: connection.grantId,
      // The person approved it on the consent screen.
      confirmed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// A grant oidc-provider ends (refresh-token reuse, revocation endpoint) ends the connection.
whenGrantRevoked(async (grantId) => {
  await getDb()
    .updateTable('access_tokens')
    .set({ revoked_at: new Date() })
    .where('oauth_grant_id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
});

/**
 * Back to the assistant through a page of our own, not a redirect: the consent form's
 * CSP (form-action 'self') would block a form submission that redirects to the
 * assistant's origin, and a person should see that it worked.
 */
function handBack(res: ServerResponse, resumeUrl: string, heading: string): void {
  const href = resumeUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'cache-control': 'no-store',
  });
  res.end(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<meta http-equiv="refresh" content="0;url=${href}"><title>${heading} · Buddy Match</title></head>` +
      `<body><main><h1>${heading}</h1><p><a href="${href}">Back to your assistant</a></p></main></body></html>`,
  );
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}

/** Adds a Set-Cookie line beside those oidc-provider may already have set on `res`. */
function addSetCookie(res: ServerResponse, line: string): void {
  const existing = res.getHeader('set-cookie');
  const lines = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  res.setHeader('set-cookie', [...lines, line]);
}

/**
 * GET /oauth/interaction/{uid}/signin|signup, the consent page's "Sign in" and "Create an
 * account": only a browser holding oidc-provider's cookie for this request (the one the
 * assistant sent here) is marked as signing in for it (lib/oauth/pending-authorization.ts);
 * any other goes to a plain sign-in or signup, which never leads to this consent step.
 */
export async function startSigninFor(
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  kind: 'signin' | 'signup',
): Promise<void> {
  req.resume();
  const provider = await oauthProvider();
  const details = await provider.interactionDetails(req, res).catch(() => null);
  if (details?.uid !== uid) return redirect(res, `/${kind}`);
  addSetCookie(res, pendingAuthorizationCookie(uid, usesSecureCookies(config().publicBaseUrl)));
  redirect(res, `/${kind}?callbackUrl=${encodeURIComponent(consentPath(uid))}`);
}

export async function finishInteraction(
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  action: 'confirm' | 'abort',
): Promise<void> {
  req.resume(); // the form carries nothing we need
  const baseUrl = config().publicBaseUrl;
  // Same rule as every cookie-authenticated write: the form must come from this site.
  if (req.headers.origin !== new URL(baseUrl).origin) {
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Cross-site request refused');
    return;
  }
  const provider = await oauthProvider();
  let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    // Expired, already answered, or opened in another browser (the interaction cookie is missing).
    return redirect(res, `/oauth/interaction/${encodeURIComponent(uid)}`);
  }
  if (details.uid !== uid) return redirect(res, `/oauth/interaction/${encodeURIComponent(details.uid)}`);
  if (action === 'abort') {
    const resume = await provider.interactionResult(
      req,
      res,
      { error: 'access_denied', error_description: 'The person declined to connect this assistant' },
      { mergeWithLastSubmission: false },
    );
    addSetCookie(res, pendingAuthorizationCookie(null, usesSecureCookies(baseUrl)));
    return handBack(res, resume, 'Not connected');
  }
  const db = getDb();
  const token = readCookie(req.headers.cookie ?? null, sessionCookieName(usesSecureCookies(baseUrl)));
  const session = token ? await findSession(db, token) : null;
  if (!session) {
    addSetCookie(res, pendingAuthorizationCookie(uid, usesSecureCookies(baseUrl)));
    return redirect(res, `/signin?callbackUrl=${encodeURIComponent(consentPath(uid))}`);
  }

  const params = details.params as { client_id: string; scope?: string; resource?: string | string[] };
  const client = await provider.Client.find(params.client_id);
  if (!client) return redirect(res, `/oauth/interaction/${encodeURIComponent(uid)}`);
  const scopes = requestedApiScopes(params.scope);
  const grant = new provider.Grant({ accountId: session.user.id, clientId: params.client_id });
  const resources = Array.isArray(params.resource) ? params.resource : params.resource ? [params.resource] : [];
  for (const resource of resources.length ? resources : [`${baseUrl}/api/mcp`])
    grant.addResourceScope(resource, scopes.join(' '));
  // The API scopes are also listed as provider scopes (so discovery names them), and
  // oidc-provider's consent check looks for them there too.
  const asked = typeof params.scope === 'string' ? params.scope.split(' ') : [];
  grant.addOIDCScope([...(asked.includes('openid') ? ['openid'] : []), ...scopes].join(' '));
  const grantId = await grant.save();
  const clientName = client.clientName ?? params.client_id;
  await recordOauthConnection(db, { userId: session.user.id, clientId: params.client_id, clientName, grantId, scopes });
  logLine({ event: 'oauth_consented', user_id: session.user.id, client_id: params.client_id, scopes: scopes.length });
  const resume = await provider.interactionResult(
    req,
    res,
    { login: { accountId: session.user.id, remember: false }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
  addSetCookie(res, pendingAuthorizationCookie(null, usesSecureCookies(baseUrl)));
  handBack(res, resume, `Connected ${clientName.replace(/[<>&"]/g, '')}`);
}

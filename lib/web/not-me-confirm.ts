// The "This wasn't me" page's button: POST /signin/not-me/confirm with the link's token.
// A plain form handler (like Auth.js's callbacks), so it works without JavaScript, and
// the only thing that ever acts: a GET is sent back to the page, which explains and
// asks. The answer is always a 303 back to the page, which reads from the database what
// the link has done (a replayed or unknown link changes nothing and says so there), so
// no URL can make the page claim an account was disabled when it was not.
import { disableAccountWithNotMeLink, NOT_ME_PAGE_PATH } from '../accounts/not-me-links';
import { config } from '../config';
import { getDb } from '@/db';
import { logLine } from '../core/log';

const MAX_FORM_BYTES = 4 * 1024;

function backToPage(token: string | null, done = false): Response {
  const target = new URL(NOT_ME_PAGE_PATH, config().publicBaseUrl);
  if (token) target.searchParams.set('token', token);
  if (done) target.searchParams.set('done', '1');
  return new Response(null, { status: 303, headers: { location: target.toString(), 'cache-control': 'no-store' } });
}

export function notMeConfirmGet(request: Request): Response {
  return backToPage(new URL(request.url).searchParams.get('token'));
}

export async function notMeConfirmPost(request: Request): Promise<Response> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_FORM_BYTES)
    return new Response('Request body too large', { status: 413 });
  const body = await request.text();
  if (Buffer.byteLength(body) > MAX_FORM_BYTES) return new Response('Request body too large', { status: 413 });
  const token = new URLSearchParams(body).get('token') ?? '';

  // Our page posts same-origin. A form on another site is sent to the page instead, where
  // the person sees what the button would do before anything happens.
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(config().publicBaseUrl).origin) return backToPage(token);

  const outcome = await disableAccountWithNotMeLink(getDb(), token);
  if (!outcome.ok) {
    logLine({ event: 'not_me_refused', reason: outcome.reason });
    return backToPage(token);
  }
  logLine({
    event: 'account_disabled',
    reason: 'not_me',
    user_id: outcome.userId,
    revoked_tokens: outcome.revokedTokens,
    ended_sessions: outcome.endedSessions,
  });
  return backToPage(token, true);
}

// GET /share/{secret} – the read-only page of a shared plan (issue 29 §6), for a trusted
// contact who has no account: what, when, where and with whom; or of a shared meetup (issue
// 45): what, when, where, the host's first name and how many go. And /mail/stop?token= –
// the unsubscribe page that link in a contact mail opens (GET shows a button, POST does it,
// so a mail scanner that follows links unsubscribes nobody).
//
// Answered in the node:http server (server/start.ts), as the home page is: plain HTML from
// React with no script at all, and a real 410 once the link is revoked or the plan is over,
// which an App Router page cannot answer. The URL is a credential: never cached
// (no-store), never indexed (X-Robots-Tag and meta robots), never sent on as a Referer
// (no-referrer: the buddy's photo may be on another host), and redacted from the request
// log (lib/core/log.ts). Nothing links to it: it exists only where the person sent it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactNode } from 'react';
import { getDb } from '@/db';
import { Avatar } from '@/app/_components/avatar';
import { StaticDocument } from '@/app/_components/static-document';
import { config } from '@/lib/config';
import { loadUnsubscribeKey, unsubscribeEverything } from '@/lib/notifications/mail-preferences';
import { type SharedPlanView, sharedPlan } from '@/lib/plans/share';
import { type SharedMeetupView, sharedMeetup } from '@/lib/meetups/share';
import { span, zonePlace } from '@/lib/web/plan-time';
import { siteStylesheet } from '@/lib/http/inline-stylesheet';
import { pageContentSecurityPolicy } from '@/lib/http/security-headers';
import { logError } from '@/lib/core/log';
import { targetPath } from '@/lib/http/request-target';

const SHARE_PATH = /^\/share\/([^/]+)$/;
const STOP_PATH = '/mail/stop';

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  title: string,
  body: ReactNode,
  https: boolean,
) {
  const nonce = randomBytes(16).toString('base64');
  const html = Buffer.from(
    `<!DOCTYPE html>\n${renderToStaticMarkup(
      <StaticDocument title={`${title} · Buddy Match`} nonce={nonce} css={siteStylesheet()} robots="noindex, nofollow">
        <div className="narrow stack">{body}</div>
      </StaticDocument>,
    )}`,
  );
  // The server's security headers, but for this page's own CSP and Referrer-Policy (set here, so they win).
  const headers: Record<string, string | number> = {
    'content-type': 'text/html; charset=utf-8',
    'content-length': html.length,
    'content-security-policy': pageContentSecurityPolicy(nonce, https),
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
    'referrer-policy': 'no-referrer',
  };
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = status;
  res.end(req.method === 'HEAD' ? undefined : html);
}

type SharedWhatWhenWhere = Pick<
  SharedPlanView,
  'activity' | 'startsAt' | 'endsAt' | 'zone' | 'placeName' | 'placeAddress'
>;

/** The rows a plan's and a meetup's share page both show: what, when on the sharer's clock, and where. */
function WhatWhenWhere({ view }: { view: SharedWhatWhenWhere }) {
  return (
    <>
      <dt>What</dt>
      <dd>{view.activity}</dd>
      <dt>When</dt>
      <dd>
        {span(view.startsAt, view.endsAt, view.zone)} ({zonePlace(view.zone)} time)
      </dd>
      <dt>Where</dt>
      <dd>
        {view.placeName}
        {view.placeAddress ? (
          <>
            <br />
            {view.placeAddress}
          </>
        ) : null}
      </dd>
    </>
  );
}

/** What a share page ends with: whom to call, and when it stops working (on the sharer's clock). */
function IfWorried({ view }: { view: Pick<SharedPlanView, 'sharerFirstName' | 'expiresAt' | 'zone'> }) {
  const expires = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: view.zone,
  }).format(view.expiresAt);
  return (
    <p>
      If you are worried and cannot reach {view.sharerFirstName}, call the local emergency number. This page is
      read-only and stops working on {expires}.
    </p>
  );
}

function SharedPlanPage({ view }: { view: SharedPlanView }) {
  return (
    <article className="stack">
      <h1>
        {view.sharerFirstName} is meeting {view.buddyFirstName}
      </h1>
      <p className="muted">
        {view.sharerFirstName} shared this plan with you so someone they trust knows where they are.
        {view.status === 'proposed' ? ' It is proposed, not yet confirmed.' : ''}
      </p>
      <div className="card share-who">
        <Avatar name={view.buddyFirstName} photoURL={view.buddyPhotoURL} alt={`Photo of ${view.buddyFirstName}`} />
        <dl className="kv">
          <dt>With</dt>
          <dd>{view.buddyFirstName}</dd>
          <WhatWhenWhere view={view} />
        </dl>
      </div>
      <IfWorried view={view} />
    </article>
  );
}

function SharedMeetupPage({ view }: { view: SharedMeetupView }) {
  return (
    <article className="stack">
      <h1>
        {view.sharerFirstName} is {view.sharerHosts ? 'hosting' : 'going to'} a meetup
      </h1>
      <p className="muted">
        {view.sharerFirstName} shared this meetup with you so someone they trust knows where they are.
      </p>
      <div className="card">
        <dl className="kv">
          <WhatWhenWhere view={view} />
          <dt>Host</dt>
          <dd>{view.sharerHosts ? view.sharerFirstName : view.hostFirstName}</dd>
          <dt>Going</dt>
          <dd>
            {view.going} {view.going === 1 ? 'person' : 'people'}, {view.sharerFirstName} included
          </dd>
        </dl>
      </div>
      <IfWorried view={view} />
    </article>
  );
}

function gone(res: ServerResponse, req: IncomingMessage, what: 'plan' | 'meetup', why: string, https: boolean) {
  send(
    res,
    req,
    410,
    `This ${what} is no longer shared`,
    <>
      <h1>This {what} is no longer shared</h1>
      <p>{why}</p>
    </>,
    https,
  );
}

async function answerShare(req: IncomingMessage, res: ServerResponse, secret: string, https: boolean) {
  const result = await sharedPlan(getDb(), secret, config().publicBaseUrl);
  if (result.kind === 'ok') return send(res, req, 200, 'A shared plan', <SharedPlanPage view={result.view} />, https);
  if (result.kind === 'gone') return gone(res, req, 'plan', result.why, https);
  // Not a plan's link: a meetup's, perhaps (one secret format for both).
  const meetup = await sharedMeetup(getDb(), secret);
  if (meetup.kind === 'ok')
    return send(res, req, 200, 'A shared meetup', <SharedMeetupPage view={meetup.view} />, https);
  if (meetup.kind === 'gone') return gone(res, req, 'meetup', meetup.why, https);
  send(
    res,
    req,
    404,
    'No such shared plan',
    <>
      <h1>No such shared plan</h1>
      <p>Check that the whole link was copied.</p>
    </>,
    https,
  );
}

async function answerStop(req: IncomingMessage, res: ServerResponse, https: boolean) {
  const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
  if (req.method === 'POST') {
    req.resume(); // The form sends nothing we read: the token is in the URL.
    const db = getDb();
    const done = token.length <= 200 ? await unsubscribeEverything(db, await loadUnsubscribeKey(db), token) : null;
    if (done)
      return send(
        res,
        req,
        200,
        'Unsubscribed',
        <>
          <h1>Done</h1>
          <p>Buddy Match will send no more mail of this kind to this address.</p>
        </>,
        https,
      );
  } else if (token) {
    return send(
      res,
      req,
      200,
      'Stop mail',
      <>
        <h1>Stop mail from Buddy Match</h1>
        <p>Someone named this address as their trusted contact. Press the button and we will not write to it again.</p>
        <form method="post" action={`${STOP_PATH}?token=${encodeURIComponent(token)}`}>
          <button type="submit">Stop mail to this address</button>
        </form>
      </>,
      https,
    );
  }
  send(
    res,
    req,
    404,
    'Link not valid',
    <>
      <h1>This link is not valid</h1>
      <p>Check that the whole link was copied from the mail.</p>
    </>,
    https,
  );
}

/** True when it answers: GET or HEAD on /share/{secret}, GET or POST on /mail/stop. */
export function answerSharePages(req: IncomingMessage, res: ServerResponse, options: { https: boolean }): boolean {
  const path = targetPath(req.url ?? '/');
  const share = SHARE_PATH.exec(path);
  const reading = req.method === 'GET' || req.method === 'HEAD';
  let work: Promise<void> | undefined;
  if (share && reading) work = answerShare(req, res, decodeSegment(share[1]!), options.https);
  else if (path === STOP_PATH && (reading || req.method === 'POST')) work = answerStop(req, res, options.https);
  if (!work) return false;
  work.catch((error: unknown) => {
    logError('share page failed', error);
    if (!res.headersSent) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('Please try again in a moment.');
    }
  });
  return true;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

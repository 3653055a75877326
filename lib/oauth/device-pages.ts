// The device sign-in pages (RFC 8628 §3.3) that oidc-provider renders at /oauth/device:
// enter the code, confirm it is the one the assistant shows, and done. Same stylesheet
// and strict CSP as every page (the stylesheet inline with a nonce, no script at all).
import { randomBytes } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { config } from '../config';
import { siteStylesheet } from '../http/inline-stylesheet';
import { pageContentSecurityPolicy } from '../http/security-headers';

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A whole page around `main` (trusted HTML: oidc-provider's own form and escaped text). */
export function renderDevicePage(ctx: KoaContextWithOIDC, title: string, main: string): void {
  const nonce = randomBytes(16).toString('base64');
  ctx.set('content-security-policy', pageContentSecurityPolicy(nonce, config().publicBaseUrl.startsWith('https://')));
  ctx.set('cache-control', 'no-store');
  ctx.type = 'html';
  ctx.body =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} · Buddy Match</title><style nonce="${nonce}">${siteStylesheet()}</style></head>` +
    `<body><header class="site-header"><div class="container"><a class="brand" href="/">Buddy Match</a></div></header>` +
    `<main id="main" class="container"><div class="narrow stack">${main}</div></main></body></html>`;
}

/**
 * The page for an OAuth error shown in the browser. A client that cannot be loaded (its
 * metadata document unreachable, of the wrong shape, or naming another client) is
 * invalid_client: the person learns the assistant's app could not be verified.
 */
export function renderOauthErrorPage(ctx: KoaContextWithOIDC, error: string): void {
  const unverified = error === 'invalid_client';
  renderDevicePage(
    ctx,
    unverified ? 'Assistant not verified' : 'Connection failed',
    unverified
      ? '<h1>Buddy Match could not verify this assistant’s app</h1><p>The assistant that sent you here describes ' +
          'itself in a document Buddy Match could not read or could not trust, so it cannot connect. Nothing was ' +
          'shared with it.</p><p>Go back to your assistant and try again later, or tell its maker. Your Buddy Match ' +
          'account is unaffected.</p><p><a href="/account">Go to your account</a></p>'
      : '<h1>This connection could not go ahead</h1><p>The assistant sent you here with a request Buddy Match ' +
          `cannot accept (${escapeHtml(error)}). Nothing was shared with it.</p><p>Go back to your assistant and ` +
          'connect Buddy Match again.</p><p><a href="/account">Go to your account</a></p>',
  );
}

/**
 * oidc-provider's form with a visible label on its code field, and without its inline
 * onfocus handler (the strict CSP runs no inline script).
 */
function labelled(form: string): string {
  return form
    .replace(/\s*onfocus="[^"]*"/g, '')
    .replace(/\s*autocomplete="off"/, '')
    .replace(
      /<input([^>]*name="user_code"[^>]*)>/,
      '<label for="user_code">Code</label><input id="user_code" autocomplete="one-time-code"$1>',
    );
}

export async function userCodeInputSource(
  ctx: KoaContextWithOIDC,
  form: string,
  _out?: unknown,
  err?: { name?: string; userCode?: string },
): Promise<void> {
  const problem =
    err && (err.userCode || err.name === 'NoCodeError')
      ? '<p class="device-problem" role="alert">That code is not right, or it expired. Check the code your assistant shows and try again.</p>'
      : err && err.name === 'AbortedError'
        ? '<p class="device-problem" role="alert">The sign-in was cancelled.</p>'
        : err
          ? '<p class="device-problem" role="alert">Something went wrong. Ask your assistant for a new code.</p>'
          : '';
  // A link that carried a code (verification_uri_complete) arrives here without it
  // (lib/oauth/front-door.ts): someone else's link must not fill in someone else's code.
  const fromLink =
    ctx.get(PREFILLED_CODE_HEADER) === '1'
      ? '<p class="device-problem" role="note">For your safety, links cannot fill in the code. Type it yourself from the screen of the assistant you are using.</p>'
      : '';
  renderDevicePage(
    ctx,
    'Connect an assistant',
    `<h1>Connect an assistant</h1><p>Type the code your assistant shows you.</p>${fromLink}${problem}${labelled(form)}` +
      `<p><strong>${ONLY_CONTINUE}</strong> If someone sent you a link or a code, stop: whoever asked for the code gets access to your account.</p>` +
      `<p><button class="button" type="submit" form="op.deviceInputForm">Continue</button></p>`,
  );
}

/** Set by lib/oauth/front-door.ts (and removed from what clients send) when the link carried a code. */
export const PREFILLED_CODE_HEADER = 'x-buddy-device-code-from-link';

export const ONLY_CONTINUE = 'Only continue if you started this on your own device just now.';

/** What the device authorization endpoint recorded (lib/oauth/provider.ts deviceInfo). */
interface DeviceInfo {
  ip?: string;
  requestedAt?: string;
}

/** "an unknown place (internet address 203.0.113.5)": no offline map from addresses to towns is available. */
function placeOf(info: DeviceInfo): string {
  const ip = info.ip && info.ip !== 'unverified' ? info.ip : null;
  return ip ? `an unknown place (internet address ${escapeHtml(ip)})` : 'an unknown place';
}

function whenOf(info: DeviceInfo, now = new Date()): string {
  const at = info.requestedAt ? new Date(info.requestedAt) : null;
  if (!at || Number.isNaN(at.getTime())) return 'at an unknown time';
  const minutes = Math.max(0, Math.round((now.getTime() - at.getTime()) / 60_000));
  const ago = minutes === 0 ? 'less than a minute ago' : minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  return `at ${at.toISOString().slice(11, 16)} UTC (${ago})`;
}

export async function userCodeConfirmSource(
  ctx: KoaContextWithOIDC,
  form: string,
  client: { clientName?: string; clientId: string },
  deviceInfo: DeviceInfo | undefined,
  userCode: string,
): Promise<void> {
  const name = escapeHtml(client.clientName ?? client.clientId);
  const info = deviceInfo ?? {};
  renderDevicePage(
    ctx,
    'Is this your code?',
    `<h1>Is this your code?</h1><p><strong>${name}</strong> asks to connect to your Buddy Match account. ` +
      `<span class="badge-unverified">Unverified</span>: Buddy Match cannot tell which assistant or app asked for this code.</p>` +
      `<p class="device-origin">This code was requested from <strong>${placeOf(info)}</strong> <strong>${whenOf(info)}</strong>.</p>` +
      `<p class="device-problem" role="alert"><strong>${ONLY_CONTINUE}</strong> If someone sent you a link or this code, cancel.</p>` +
      `<p>Your assistant should show this code:</p>` +
      `<p class="user-code"><code>${escapeHtml(userCode)}</code></p><p>If it shows another code, or you did not ask for this, cancel.</p>${form}` +
      `<div class="actions"><button class="button" type="submit" form="op.deviceConfirmForm">Yes, continue</button>` +
      `<button class="button button-secondary" type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button></div>`,
  );
}

/**
 * Connected. A person whose profile still waits for their yes (REQUIRE_PERSON_CONSENT) is told
 * so here, with the way to the button on their account page (this page runs no script, and
 * the yes is the person's own, given signed in on the web).
 */
export async function successSource(ctx: KoaContextWithOIDC, awaitingPersonConsent = false): Promise<void> {
  const name = escapeHtml(ctx.oidc.client?.clientName ?? 'Your assistant');
  const consent = awaitingPersonConsent
    ? '<section class="notice notice-warn" aria-labelledby="show-me-heading"><h2 id="show-me-heading">Nobody can see your profile yet</h2>' +
      '<p>It stays out of Discover until you say so. Only you can, on your account page.</p>' +
      '<p><a class="button" href="/account#show-me">Review and show my profile</a></p></section>'
    : '';
  renderDevicePage(
    ctx,
    'Connected',
    `<h1>Connected</h1><p>${name} can now act for you. Go back to it: it carries on by itself.</p>${consent}<p><a href="/account/agents">See your connected assistants</a></p>`,
  );
}

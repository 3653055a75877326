// The device sign-in pages (RFC 8628 §3.3) that oidc-provider renders at /oauth/device:
// enter the code, confirm it is the one the assistant shows, and done. Same stylesheet
// and strict CSP as every page (the stylesheet inline with a nonce, no script at all).
import { randomBytes } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { config } from '../config';
import { siteStylesheet } from '../web/inline-stylesheet';
import { pageContentSecurityPolicy } from '../web/security-headers';

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
  renderDevicePage(
    ctx,
    'Connect an assistant',
    `<h1>Connect an assistant</h1><p>Enter the code your assistant gave you.</p>${problem}${labelled(form)}<p><button class="button" type="submit" form="op.deviceInputForm">Continue</button></p>`,
  );
}

export async function userCodeConfirmSource(
  ctx: KoaContextWithOIDC,
  form: string,
  client: { clientName?: string; clientId: string },
  _deviceInfo: unknown,
  userCode: string,
): Promise<void> {
  const name = escapeHtml(client.clientName ?? client.clientId);
  renderDevicePage(
    ctx,
    'Is this your code?',
    `<h1>Is this your code?</h1><p><strong>${name}</strong> asks to connect to your Buddy Match account. Your assistant should show this code:</p>` +
      `<p class="user-code"><code>${escapeHtml(userCode)}</code></p><p>If it shows another code, or you did not ask for this, cancel.</p>${form}` +
      `<div class="actions"><button class="button" type="submit" form="op.deviceConfirmForm">Yes, continue</button>` +
      `<button class="button button-secondary" type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button></div>`,
  );
}

export async function successSource(ctx: KoaContextWithOIDC): Promise<void> {
  const name = escapeHtml(ctx.oidc.client?.clientName ?? 'Your assistant');
  renderDevicePage(
    ctx,
    'Connected',
    `<h1>Connected</h1><p>${name} can now act for you. Go back to it: it carries on by itself.</p><p><a href="/account/agents">See your connected assistants</a></p>`,
  );
}

// A browser stand-in for the API tests: keeps cookies, does not follow redirects (so a
// test can assert where Auth.js sends the person), and posts HTML forms the way the
// sign-in pages do. Real HTTP against the real server.
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { baseUrl, freshIp } from './client';

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** `base`: a stack the test started itself (default: the shared one). */
  constructor(
    readonly ip: string = freshIp(),
    readonly base: string = '',
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { 'x-forwarded-for': this.ip, ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.base || baseUrl()}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // HTML or empty
    }
    return { status: res.status, location: res.headers.get('location'), headers: res.headers, text, json };
  }

  /** Auth.js's CSRF token for this client (sets its cookie on first call). */
  async csrf(): Promise<string> {
    const res = await this.request('GET', '/auth/csrf');
    return res.json.csrfToken as string;
  }

  async signInWithPassword(email: string, password: string) {
    const csrfToken = await this.csrf();
    return this.request('POST', '/auth/callback/password', {
      form: { csrfToken, email, password, callbackUrl: '/account' },
    });
  }

  /** "Email me a sign-in link", as the form on /signin posts it. */
  async requestSigninLink(email: string) {
    const csrfToken = await this.csrf();
    return this.request('POST', '/auth/signin/email', { form: { csrfToken, email, callbackUrl: '/account' } });
  }

  sessionCookie(): string | undefined {
    return this.cookies.get('buddy.session');
  }
}

/** The path and query of an absolute redirect target, for readable assertions. */
export function pathOf(location: string | null): string {
  if (!location) return '';
  const url = new URL(location, baseUrl());
  return `${url.pathname}${url.search}`;
}

const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The mails to `email` so far, oldest first and decoded, from the local outbox (DATA_DIR/mail). */
export function mailsTo(email: string): string[] {
  const dir = path.join(inject('dataDir'), 'mail');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const to = new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi');
  return files
    .map((file) => decodeQuotedPrintable(fs.readFileSync(path.join(dir, file), 'utf8')))
    .filter((mail) => to.test(mail));
}

/** The sign-in link tokens mailed to `email` so far. */
export function mailedLinkTokens(email: string): string[] {
  return mailsTo(email).flatMap((mail) => /\/signin\/link\?token=(bm_sl_[\w-]+)/.exec(mail)?.[1] ?? []);
}

/** Waits (up to 20 s) for a sign-in link mailed to `email` that is not among `seen`. */
export async function nextMailedLinkToken(email: string, seen: readonly string[] = []): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const fresh = mailedLinkTokens(email).find((token) => !seen.includes(token));
    if (fresh) return fresh;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No new sign-in mail to ${email} arrived in the outbox`);
}

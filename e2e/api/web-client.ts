// A browser stand-in for the API tests: keeps cookies, does not follow redirects (so a
// test can assert where Auth.js sends the person), and posts HTML forms the way the
// sign-in pages do. Real HTTP against the real server.
import { baseUrl, freshIp } from './client';

export class WebClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly ip: string = freshIp()) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}) {
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
    const res = await fetch(`${baseUrl()}${path}`, { method, headers, body, redirect: 'manual' });
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
    return this.request('POST', '/auth/callback/password', { form: { csrfToken, email, password, callbackUrl: '/account' } });
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

// The web pages' one way to call the JSON API agents use, with the session cookie.
// Reads are SWR fetchers that throw; writes return a result the form can show. Every
// failure becomes one sentence a person can act on.

export interface ApiFailure {
  /** HTTP status, or 0 when the server could not be reached. */
  status: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiFailure };

interface ErrorEnvelope {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

/** Thrown by getJson so SWR keeps the last good data and exposes the failure. */
export class ApiCallError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

const UNREACHABLE: ApiFailure = {
  status: 0,
  code: 'network',
  message: 'Could not reach the server. Check your connection; we’ll keep trying.',
};

async function failureOf(res: Response): Promise<ApiFailure> {
  const body = (await res.json().catch(() => ({}))) as ErrorEnvelope;
  const retryAfter = Number(res.headers.get('retry-after'));
  let message = body.error?.message ?? `The server answered ${res.status}.`;
  if (res.status === 401) message = 'Your session has ended. Sign in again to continue.';
  // Most refusals already say when to try again; add it only where one does not.
  if (res.status === 429 && retryAfter > 0 && !/try again/i.test(message)) {
    message = `${message} Try again in ${retryAfter <= 90 ? `${retryAfter} seconds` : `${Math.ceil(retryAfter / 60)} minutes`}.`;
  }
  return { status: res.status, code: body.error?.code ?? 'error', message, fields: body.error?.fields };
}

/** SWR fetcher: the parsed body, or an ApiCallError. */
export async function getJson<T>(url: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-cache' });
  } catch {
    throw new ApiCallError(UNREACHABLE);
  }
  if (!res.ok) throw new ApiCallError(await failureOf(res));
  return (await res.json()) as T;
}

/** A write (POST, PATCH, DELETE) with an optional JSON body. */
export async function sendJson<T>(
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return {
      ok: false,
      error: { ...UNREACHABLE, message: 'Could not reach the server. Check your connection and try again.' },
    };
  }
  if (!res.ok) return { ok: false, error: await failureOf(res) };
  return { ok: true, data: (await res.json()) as T };
}

/** The sentence to show for a failed read or write. */
export function failureText(error: unknown): string {
  if (error instanceof ApiCallError) return error.failure.message;
  return UNREACHABLE.message;
}

/**
 * What to show under a form field after a failed write: the field's own complaint for a
 * validation error ("must be at most 280 characters"), otherwise the whole message, which
 * reads as a sentence ("Not sent: the text is mostly capital letters").
 */
export function fieldFailure(error: ApiFailure, field: string): string {
  return error.code === 'validation_failed' ? (error.fields?.[field] ?? error.message) : error.message;
}

// The application error: a stable code, a message, a next step. No HTTP here: lib/http/error-response.ts maps
// each code to a status and builds the envelope and headers. Codes are part of the public contract: agents branch
// on them, so never rename one.

export const ERROR_CODES = [
  'invalid_json',
  'validation_failed',
  'photo_invalid',
  'photo_unsupported_format',
  'photo_type_mismatch',
  'photo_too_many_pixels',
  'photo_url_forbidden',
  'photo_fetch_failed',
  'cannot_target_self',
  'unauthorized',
  'insufficient_scope',
  'forbidden',
  'person_only',
  'recipient_unavailable',
  'chat_unavailable',
  'wrong_password',
  'not_found',
  'method_not_allowed',
  'conflict',
  'idempotency_key_in_use',
  'email_taken',
  'slug_taken',
  'already_buddies',
  'request_not_pending',
  'request_declined',
  'plan_not_open',
  'plan_superseded',
  'signin_link_used',
  'signin_link_expired',
  'payload_too_large',
  'photo_too_large',
  'unsupported_media_type',
  'headers_too_large',
  'onboarding_incomplete',
  'idempotency_key_reused',
  'message_blocked_profanity',
  'message_blocked_threat',
  'message_blocked_solicitation',
  'message_blocked_shouting',
  'message_blocked_spam',
  'rate_limited',
  'too_many_open_plans',
  'meetup_not_open',
  'internal_error',
  'upstream_error',
  'service_unavailable',
  'upstream_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** What each code means and what the caller should do, for the guides and OpenAPI. */
export const ERROR_ADVICE: Record<ErrorCode, string> = {
  invalid_json: 'The body is not valid JSON. Send a JSON object with Content-Type: application/json.',
  validation_failed: 'A field is missing or invalid; error.fields names each one. Fix them and retry.',
  photo_invalid:
    'The photo is not valid base64 (or a base64 data URL) of a readable image. Re-encode the file and send it again.',
  photo_unsupported_format:
    'Only JPEG, PNG and WEBP photos are accepted (checked from the bytes, not the declared type). Convert the image first.',
  photo_type_mismatch:
    'The declared mimeType (or data URL type) differs from what the bytes are. Send the real type, or omit mimeType.',
  photo_too_many_pixels:
    'The image has too many pixels (at most 40 megapixels). Resize it, for example to 1600 px on the long edge.',
  photo_url_forbidden:
    'photoURL must be a public https URL (port 443) whose host does not resolve to a private, loopback, link-local or metadata address; redirects are checked the same way.',
  photo_fetch_failed:
    'The server could not download photoURL (unreachable, timed out after 10 s, not HTTP 200, or too many redirects). Check the URL is publicly reachable, or send the photo inline.',
  cannot_target_self: 'The path names the caller: you cannot send a buddy request to, block or report yourself.',
  unauthorized:
    'The bearer token is missing, unknown, expired or revoked. Lost the token of an account that exists? Do not register again (that answers email_taken): get a new token by device sign-in, POST /oauth/device/auth with client_id=buddy-match-device (AGENTS.md "Connecting"). OAuth hosts follow WWW-Authenticate. Someone new: POST /api/v1/register.json returns a token; send it as Authorization: Bearer <token>.',
  insufficient_scope: 'The token lacks the scope this endpoint needs. Use a token with that scope.',
  forbidden:
    'The caller may not do this (for example, accept a request sent to someone else, or a cross-site request with a session cookie).',
  person_only:
    'Only the person can do this, signed in to the web app; no token can, an assistant’s included. Send them to the page the hint names.',
  wrong_password:
    'The current password is wrong. Ask the user for it; after several wrong tries the account is paused for a few minutes.',
  recipient_unavailable:
    'This person cannot receive a buddy request from the caller. Do not retry; suggest someone else to the user.',
  chat_unavailable:
    'This chat no longer accepts messages between these two people. Do not retry; tell the user the message was not sent.',
  not_found: 'No such resource, or it is not visible to the caller.',
  method_not_allowed: 'This path does not take that HTTP method; see /api/v1/index.json.',
  conflict: 'The request conflicts with the current state; read the resource again.',
  idempotency_key_in_use:
    'The first request with this Idempotency-Key is still running after 30 seconds. Retry the same request with the same key after Retry-After to get its answer.',
  email_taken:
    'An account with this email exists: do not register again, connect to it. OAuth hosts: call any tool and let the host sign the person in. Others: device sign-in (POST /oauth/device/auth, show the person the link and code; AGENTS.md "Connecting").',
  slug_taken: 'That slug is in use. Omit slug to have one generated, or pick another.',
  already_buddies:
    'You are already buddies: write in the existing chat (error.hint names it) instead of sending a request.',
  request_not_pending:
    'The request was already accepted, declined or cancelled; read GET /api/v1/buddy_requests.json for its state.',
  request_declined:
    'This person declined your last request recently. Do not send another; suggest someone else to the user.',
  plan_not_open:
    'The plan is no longer open to this (answered, cancelled, expired or started); error.plan is the plan as it is now.',
  plan_superseded:
    'A counter-proposal replaced this plan; error.plan is the old plan, its superseded_by names the new one to answer.',
  meetup_not_open:
    'The meetup is cancelled, under way or over, so this cannot be done now; read it again (GET the meetup) and tell the person.',
  too_many_open_plans:
    'This chat already holds 3 open proposals. Wait for answers, or cancel one or name it in replaces to change it.',
  signin_link_used:
    'This sign-in link was already used; each link works once. The user can ask for a new one at /signin.',
  signin_link_expired:
    'This sign-in link has expired (they last about an hour). The user can ask for a new one at /signin.',
  payload_too_large: 'The body is larger than this endpoint accepts.',
  photo_too_large: 'The photo is larger than 5 MB once decoded (or downloaded). Compress or resize it and try again.',
  unsupported_media_type: 'Send the body as JSON with Content-Type: application/json.',
  headers_too_large:
    'The request line and headers exceed 16 KB (usually a very long query string). Send long values in a body, or fewer and shorter parameters.',
  idempotency_key_reused:
    'This Idempotency-Key already belongs to a different request (method, path or body) from the last 24 hours, so nothing was done. Use a new random key (a UUID) for each new request; reuse a key only to retry the very same request.',
  onboarding_incomplete: 'Required profile fields are missing; error.fields lists them. PATCH /api/v1/me.json first.',
  message_blocked_profanity:
    'The text contains a slur or explicit language and was not sent. Rephrase it without that word; do not try to disguise it.',
  message_blocked_threat:
    "The text reads as a threat of violence and was not sent. Rephrase it; never send threats on the user's behalf.",
  message_blocked_solicitation:
    'The text reads as sexual solicitation and was not sent. This is a platform for activity buddies; rephrase it.',
  message_blocked_shouting: 'The text is mostly capital letters and was not sent. Send it in normal sentence case.',
  message_blocked_spam:
    'The text repeats a character or word many times and was not sent. Send it without the repetition.',
  rate_limited: 'Too many requests. Wait for the number of seconds in the Retry-After header.',
  internal_error: 'An unexpected error on our side. Retry later; the request was not completed.',
  upstream_error: 'An upstream service answered with an error. Retry later.',
  service_unavailable: 'A service this needs is unavailable. Retry after the Retry-After header.',
  upstream_unavailable: 'An upstream service could not be reached. Retry after the Retry-After header.',
};

/** The quota a rate_limited refusal ran into; the transport states it in the RateLimit fields. */
export interface RefusedQuota {
  policy: string;
  points: number;
  windowSeconds: number;
}

export interface ApiErrorOptions {
  hint?: string;
  fields?: Record<string, string>;
  /** A plan conflict's plan as it is now (error.plan), so the caller need not read it again. */
  plan?: unknown;
  /** When a retry may succeed (rate limits, a busy service). */
  retryAfterSeconds?: number;
  rateLimit?: RefusedQuota;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly fields: Record<string, string> | undefined;
  readonly plan: unknown;
  readonly retryAfterSeconds: number | undefined;
  readonly rateLimit: RefusedQuota | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    // An answer, not a fault: no stack is captured (it cost a refused request 8% of its CPU, issue 48).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.hint = options.hint;
    this.fields = options.fields;
    this.plan = options.plan;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.rateLimit = options.rateLimit;
  }

  /** The next step: the code's standard advice unless a more specific hint was given. */
  get advice(): string {
    return this.hint ?? ERROR_ADVICE[this.code];
  }
}

export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);

/** PostgreSQL unique violations map by SQLSTATE and constraint name, never by message text. */
const UNIQUE_CONSTRAINT_ERRORS: Record<string, () => ApiError> = {
  users_email_lower_key: () =>
    new ApiError('email_taken', 'An account with this email already exists', {
      fields: { email: 'already registered' },
    }),
  users_slug_key: () => new ApiError('slug_taken', 'This slug is already taken', { fields: { slug: 'already taken' } }),
};

/** What a unique violation of `constraint` answers, for a check made before the write itself. */
export function uniqueConflict(constraint: string): ApiError {
  const make = UNIQUE_CONSTRAINT_ERRORS[constraint];
  return make ? make() : new ApiError('conflict', 'This conflicts with an existing record');
}

export function isUniqueViolation(error: unknown, constraint?: string): error is { code: string; constraint?: string } {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return !!e && e.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

export function mapDatabaseError(error: unknown): ApiError | undefined {
  if (isUniqueViolation(error)) {
    const make = error.constraint ? UNIQUE_CONSTRAINT_ERRORS[error.constraint] : undefined;
    return make ? make() : new ApiError('conflict', 'This conflicts with an existing record');
  }
  if (isTransientDatabaseError(error))
    return new ApiError('service_unavailable', 'The database is busy or briefly unavailable; nothing was changed', {
      retryAfterSeconds: 1,
    });
  return undefined;
}

/**
 * SQLSTATEs after which the same request may well succeed a moment later, its transaction
 * having been rolled back whole: serialization failure, deadlock, lock or statement
 * timeout, too many connections, the server shutting down or starting, and the
 * connection-exception class (08).
 */
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03', '57014', '53300', '57P01', '57P02', '57P03']);
// A refused socket is the database not listening (a reset may be the client leaving: route.ts);
// node-postgres's own pool and client errors carry no code, only these messages.
const TRANSIENT_DRIVER_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect)/;

/** A database that is busy or briefly away: a 503 with Retry-After, never a 500. */
export function isTransientDatabaseError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string')
    return TRANSIENT_SQLSTATES.has(e.code) || e.code.startsWith('08') || e.code === 'ECONNREFUSED';
  return error instanceof Error && TRANSIENT_DRIVER_MESSAGE.test(error.message);
}

// The transport's side of the application error: the one table from code to HTTP status, the envelope
// {error:{code,message,hint,fields?,plan?}} and the headers a refusal carries (Retry-After, RateLimit fields).
import { ApiError, type ApiErrorOptions, type ErrorCode } from '../core/errors';
import { rateLimitHeaders } from '../limits/rate-limits';

export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  photo_invalid: 400,
  photo_unsupported_format: 400,
  photo_type_mismatch: 400,
  photo_too_many_pixels: 400,
  photo_url_forbidden: 400,
  photo_fetch_failed: 400,
  cannot_target_self: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  forbidden: 403,
  person_only: 403,
  recipient_unavailable: 403,
  chat_unavailable: 403,
  wrong_password: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  email_taken: 409,
  slug_taken: 409,
  already_buddies: 409,
  request_not_pending: 409,
  request_declined: 409,
  plan_not_open: 409,
  plan_superseded: 409,
  meetup_not_open: 409,
  signin_link_used: 410,
  signin_link_expired: 410,
  payload_too_large: 413,
  photo_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  onboarding_incomplete: 422,
  idempotency_key_reused: 422,
  message_blocked_profanity: 422,
  message_blocked_threat: 422,
  message_blocked_solicitation: 422,
  message_blocked_shouting: 422,
  message_blocked_spam: 422,
  rate_limited: 429,
  too_many_open_plans: 429,
  internal_error: 500,
  upstream_error: 502,
  service_unavailable: 503,
  upstream_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; hint: string; fields?: Record<string, string>; plan?: unknown };
}

export function errorStatus(error: ApiError): number {
  return ERROR_STATUS[error.code];
}

export function errorBody(error: ApiError): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      // Every envelope carries a next step.
      hint: error.advice,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.plan !== undefined ? { plan: error.plan } : {}),
    },
  };
}

/** An error the transport raises with a header of its own: the WWW-Authenticate challenge of a 401 or 403. */
export class ChallengeError extends ApiError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly headers: Record<string, string>,
    options: ApiErrorOptions = {},
  ) {
    super(code, message, options);
  }
}

export function errorHeaders(error: ApiError): Record<string, string> {
  const retryAfter = error.retryAfterSeconds;
  return {
    ...(error instanceof ChallengeError ? error.headers : {}),
    ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}),
    ...(error.rateLimit ? rateLimitHeaders(error.rateLimit.policy, error.rateLimit, 0, retryAfter ?? 0) : {}),
  };
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side';
/** What the node:http server answers when a request fails outside route() (which adds the hint). */
export const INTERNAL_ERROR_ENVELOPE = { error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE } } as const;

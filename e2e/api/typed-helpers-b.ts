// Typed steps for the API tests converted to the contract client (buddy requests and
// messages through call(), so their answers are parsed and typed).
import { expect } from 'vitest';
import type { EndpointSpec } from '@/lib/contract/define';
import { errorEnvelopeSchema } from '@/lib/contract/errors';
import { acceptBuddyRequest, sendBuddyRequest, sendMessage } from '@/lib/contract/social';
import { ERROR_STATUS, type ErrorCode } from '@/lib/http/errors';
import type { ApiResponse } from './client';
import { call, send, type CallInput } from './contract-client';
import type { TestUser } from './social-helpers';

/** `from` asks `to`; the request must be created (201). */
export const askBuddy = (from: TestUser, to: TestUser, body?: CallInput<typeof sendBuddyRequest>['body']) =>
  call(sendBuddyRequest, { params: { slug: to.slug }, token: from.token, body });

/** `by` accepts the invitation; returns the request, the chat and the first message. */
export const acceptInvitation = (
  by: TestUser,
  invitationId: string,
  body?: CallInput<typeof acceptBuddyRequest>['body'],
) => call(acceptBuddyRequest, { params: { invitationId }, token: by.token, body });

/** `by` writes in the chat; the message must be stored (201). */
type MessageExtra = Omit<NonNullable<CallInput<typeof sendMessage>['body']>, 'text'>;
export const say = (by: TestUser, chatId: string, text: string, extra: MessageExtra = {}) =>
  call(sendMessage, { params: { chatId }, token: by.token, body: { text, ...extra } });

/** call(), for a success whose headers matter too (ETag, Cache-Control): returns { data, status, headers }. */
export async function callWithHeaders<S extends EndpointSpec>(spec: S, input: CallInput<S>) {
  const res = await send(spec, input);
  if (!res.ok) throw new Error(`${spec.id} failed with ${res.status}: ${JSON.stringify(res.error)}`);
  return res;
}

/**
 * For requests the contract's types cannot express (values or fields they forbid), sent
 * raw: the answer must be the error envelope with this code and the status it maps to.
 */
export function refusedRaw(res: ApiResponse<unknown>, code: ErrorCode) {
  const { error } = errorEnvelopeSchema.parse(res.body);
  expect({ status: res.status, code: error.code }).toEqual({ status: ERROR_STATUS[code], code });
  return { ...error, status: res.status, headers: res.headers };
}

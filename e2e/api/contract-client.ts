// The API tests' typed client: every call names its endpoint from the contract, so the
// path, the parameters and the body are checked by the compiler, and every answer is
// checked against the contract (a success against `spec.response`, a failure against
// the error envelope) before the test reads it.
import type { z } from 'zod';
import type { EndpointSpec } from '@/lib/contract/define';
import { errorEnvelopeSchema, type ErrorEnvelope } from '@/lib/contract/errors';
import { fill } from '@/lib/contract/paths';
import type { ErrorCode } from '@/lib/core/errors';
import { ERROR_STATUS } from '@/lib/http/error-response';
import { api, type ApiResponse } from './client';

type InputOf<T> = T extends z.ZodType ? z.input<T> : never;
type QueryValue = string | number | boolean | undefined;

/** What a call sends: the path parameters, query and body the spec declares, and who sends it. */
export type CallInput<S extends EndpointSpec> = {
  token?: string;
  ip?: string;
  headers?: Record<string, string>;
  base?: string;
} & (S['params'] extends z.ZodObject ? { params: { [K in keyof InputOf<S['params']>]: string } } : { params?: never }) &
  (S['query'] extends z.ZodObject ? { query?: { [K in keyof InputOf<S['query']>]?: QueryValue } } : { query?: never }) &
  (S['body'] extends z.ZodType ? { body?: InputOf<S['body']> } : { body?: never });

export type ResponseOf<S extends EndpointSpec> = z.output<S['response']>;

/** A call's answer, either the contract's success or its error envelope. */
export type CallResult<S extends EndpointSpec> =
  | { ok: true; status: number; headers: Headers; data: ResponseOf<S> }
  | { ok: false; status: number; headers: Headers; error: ErrorEnvelope['error'] };

/** Fills `{name}` in the spec's path from `params`, escaped (a missing one throws). */
export function pathOf(
  spec: EndpointSpec,
  params: Record<string, string> = {},
  query: Record<string, QueryValue> = {},
): string {
  const filled = fill(spec.path, params);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

class ContractViolation extends Error {}

/**
 * Sends the call and checks the answer against the contract. Returns the parsed answer
 * whatever its status; a body that matches neither the response nor the error envelope
 * fails the test.
 */
export async function send<S extends EndpointSpec>(spec: S, input: CallInput<S>): Promise<CallResult<S>> {
  const { params, query, body, token, ip, headers, base } = input as {
    params?: Record<string, string>;
    query?: Record<string, QueryValue>;
    body?: unknown;
    token?: string;
    ip?: string;
    headers?: Record<string, string>;
    base?: string;
  };
  const res = await api<unknown>(spec.method, pathOf(spec, params, query), { body, token, ip, headers, base });
  const where = `${spec.method} ${spec.path} answered ${res.status}`;
  if (res.status === (spec.status ?? 200) || res.status === spec.alsoOk?.status) {
    const parsed = spec.response.safeParse(res.body);
    if (!parsed.success)
      throw new ContractViolation(
        `${where} with a body its response schema refuses: ${parsed.error.message}\n${JSON.stringify(res.body)}`,
      );
    return { ok: true, status: res.status, headers: res.headers, data: parsed.data as ResponseOf<S> };
  }
  const envelope = errorEnvelopeSchema.safeParse(res.body);
  if (!envelope.success)
    throw new ContractViolation(`${where} with a body that is not the error envelope: ${JSON.stringify(res.body)}`);
  return { ok: false, status: res.status, headers: res.headers, error: envelope.data.error };
}

/** The call must succeed with the spec's status; returns the answer with its headers (ETag, Cache-Control, …). */
export async function callWithHeaders<S extends EndpointSpec>(spec: S, input: CallInput<S>) {
  const res = await send(spec, input);
  if (!res.ok) throw new Error(`${spec.id} failed with ${res.status}: ${JSON.stringify(res.error)}`);
  return res;
}

/** The call must succeed with the spec's status; returns its typed data. */
export async function call<S extends EndpointSpec>(spec: S, input: CallInput<S>): Promise<ResponseOf<S>> {
  return (await callWithHeaders(spec, input)).data;
}

type Refusal = ErrorEnvelope['error'] & { status: number; headers: Headers };

/** The error must carry this code, with the status the service gives that code. */
function requireCode(
  what: string,
  res: { status: number; headers: Headers; error: ErrorEnvelope['error'] },
  code: ErrorCode,
): Refusal {
  if (res.error.code !== code || res.status !== ERROR_STATUS[code]) {
    throw new Error(
      `${what} failed with ${res.error.code} (${res.status}) where ${code} (${ERROR_STATUS[code]}) was expected: ${res.error.message}`,
    );
  }
  return { ...res.error, status: res.status, headers: res.headers };
}

/**
 * The call must fail with this code (and the status the service gives that code);
 * returns the error for further checks (message, hint, fields).
 */
export async function refused<S extends EndpointSpec>(spec: S, input: CallInput<S>, code: ErrorCode): Promise<Refusal> {
  const res = await send(spec, input);
  if (res.ok)
    throw new Error(`${spec.id} succeeded (${res.status}) where ${code} was expected: ${JSON.stringify(res.data)}`);
  return requireCode(spec.id, res, code);
}

/**
 * refused() for a request sent raw with api(), because the contract's types cannot
 * express it (values or fields they forbid): the answer must be the error envelope with
 * this code and the status it maps to.
 */
export function refusedRaw(res: ApiResponse<unknown>, code: ErrorCode): Refusal {
  const envelope = errorEnvelopeSchema.safeParse(res.body);
  if (!envelope.success)
    throw new ContractViolation(
      `answered ${res.status} with a body that is not the error envelope: ${JSON.stringify(res.body)}`,
    );
  return requireCode('the request', { ...res, error: envelope.data.error }, code);
}

import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import {
  decide,
  fingerprint,
  idempotencyKey,
  IDEMPOTENCY_TTL_SECONDS,
  parseIdempotencyKey,
  type StoredRow,
} from './idempotency';

const NOW = new Date('2026-11-23T12:00:00Z');
const at = (secondsFromNow: number) => new Date(NOW.getTime() + secondsFromNow * 1000);
const inProgress = (lockedFor: number) => row({ status: null, locked_until: at(lockedFor) });
const row = (overrides: Partial<StoredRow> = {}): StoredRow => ({
  fingerprint: 'same',
  status: 201,
  locked_until: at(-1),
  expires_at: at(IDEMPOTENCY_TTL_SECONDS - 60),
  ...overrides,
});

describe('what a stored key says to a request carrying it', () => {
  it.each<[string, StoredRow | undefined, string, ReturnType<typeof decide>]>([
    ['no row: run it', undefined, 'same', 'run'],
    ['finished, same request: replay the answer', row(), 'same', 'replay'],
    ['finished, different request: refuse (422)', row(), 'other', 'mismatch'],
    ['in progress, same request: wait for it', inProgress(60), 'same', 'wait'],
    ['in progress, different request: refuse at once', inProgress(60), 'other', 'mismatch'],
    ['holder died (lease over), same request: run it again', inProgress(-1), 'same', 'run'],
    ['holder died, different request: still refused', inProgress(-1), 'other', 'mismatch'],
    // 24 hours after the first use the key is new again, whatever it was used for.
    ['expired (24 h), same request: run it again', row({ expires_at: at(-1) }), 'same', 'run'],
    ['expired (24 h), different request: run it', row({ expires_at: at(-1) }), 'other', 'run'],
    ['expiring this instant counts as expired', row({ expires_at: NOW }), 'other', 'run'],
    ['one second before expiry: still replayed', row({ expires_at: at(1) }), 'same', 'replay'],
  ])('%s', (_name, stored, print, expected) => {
    expect(decide(stored, print, NOW)).toBe(expected);
  });
});

describe('the Idempotency-Key header', () => {
  it.each([
    ['8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['"with \\"quotes\\" and \\\\"', 'with "quotes" and \\'],
    ['  padded  ', 'padded'],
    ['x'.repeat(255), 'x'.repeat(255)],
  ])('accepts %j (a Structured Fields string or a bare value)', (header, key) => {
    expect(parseIdempotencyKey(header)).toBe(key);
  });

  it('is optional', () => {
    expect(parseIdempotencyKey(null)).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['empty string item', '""'],
    ['too long', 'x'.repeat(256)],
    ['not ASCII', 'clé-ü'],
    ['control character', 'a\u0001b'],
  ])('refuses %s with a 400 naming the header', (_name, header) => {
    let error: unknown;
    try {
      parseIdempotencyKey(header);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('validation_failed');
    expect((error as ApiError).fields).toHaveProperty('Idempotency-Key');
  });
});

describe('the request fingerprint', () => {
  const key = idempotencyKey('k-1', 'token:abc');
  const print = (body: string, target = '/api/v1/chats/c/messages.json', method = 'POST', k = key) =>
    fingerprint(k, method, target, body);

  it('is the same for the same JSON whatever the order of its fields or its spacing', () => {
    expect(print('{"text":"hi","agentName":"bot"}')).toBe(print('{ "agentName": "bot", "text": "hi" }'));
  });

  it.each([
    ['another body', () => print('{"text":"hello"}')],
    ['another path', () => print('{"text":"hi"}', '/api/v1/chats/d/messages.json')],
    ['another query', () => print('{"text":"hi"}', '/api/v1/chats/c/messages.json?x=1')],
    ['another method', () => print('{"text":"hi"}', '/api/v1/chats/c/messages.json', 'PATCH')],
  ])('differs for %s', (_name, other) => {
    expect(other()).not.toBe(print('{"text":"hi"}'));
  });

  it('is keyed by the client key and its scope, so a stored fingerprint reveals nothing about the body', () => {
    const body = '{"password":"correct horse battery"}';
    expect(print(body, '/p', 'POST', idempotencyKey('k-2', 'token:abc'))).not.toBe(print(body, '/p'));
    expect(print(body, '/p', 'POST', idempotencyKey('k-1', 'token:xyz'))).not.toBe(print(body, '/p'));
  });

  it('stores only a hash of the key', () => {
    expect(key.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.keyHash).not.toContain('k-1');
  });
});

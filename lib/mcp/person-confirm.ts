// What only a person can confirm (issue 32 §2). The model prepares an action
// (send_buddy_request with confirm: "person"); the server keeps a single-use confirmation
// bound to the caller and to a hash of the exact payload, and hands its token to the view
// only (the result's `_meta`, which hosts give the view, not the model). The person's tap
// calls an app-only tool with the token and the payload it showed; anything else is refused.
import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { Database } from '@/db';

export const CONFIRMATION_TTL_MS = 15 * 60 * 1000;
/** The key of the result's `_meta` the view reads the confirmation from. */
export const CONFIRMATION_META_KEY = 'buddy-match/confirmation';
/** The MCP Apps extension id a host declares in its capabilities. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';

export type ConfirmAction = 'send_buddy_request';

/** The payload as the person saw it: keys sorted, undefined dropped, so the same action always hashes the same. */
export function canonicalPayload(payload: Record<string, unknown>): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
      );
    return value;
  };
  return JSON.stringify(sorted(payload));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function prepareConfirmation(
  db: Database,
  userId: string,
  action: ConfirmAction,
  payload: Record<string, unknown>,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + CONFIRMATION_TTL_MS);
  await db
    .insertInto('person_confirmations')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      action,
      payload_hash: sha256(`${action}\n${canonicalPayload(payload)}`),
      expires_at: expiresAt,
    })
    .execute();
  // Spent and expired rows are of no further use; a few at a time keeps the table small.
  await db
    .deleteFrom('person_confirmations')
    .where('expires_at', '<', new Date(now.getTime() - CONFIRMATION_TTL_MS))
    .execute();
  return { token, expiresAt };
}

/**
 * Spends the confirmation when it is this caller's, for this exact action and payload,
 * unexpired and unused: one UPDATE, so two taps at once cannot both win. False otherwise,
 * with no hint of which check failed.
 */
export async function spendConfirmation(
  db: Database,
  userId: string,
  action: ConfirmAction,
  token: string,
  payload: Record<string, unknown>,
  now = new Date(),
): Promise<boolean> {
  const spent = await db
    .updateTable('person_confirmations')
    .set({ used_at: now })
    .where('token_hash', '=', sha256(token))
    .where('user_id', '=', userId)
    .where('action', '=', action)
    .where('payload_hash', '=', sha256(`${action}\n${canonicalPayload(payload)}`))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('token_hash')
    .executeTakeFirst();
  return spent !== undefined;
}

/** Whether the request's declared client capabilities include MCP Apps views. */
export function declaresUi(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, { mimeTypes?: unknown }> } | undefined)?.extensions;
  const ui = extensions?.[UI_EXTENSION_ID];
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes('text/html;profile=mcp-app');
}

/**
 * The calling host's client capabilities, where this instance can see them. A 2026-07-28
 * request carries them in its own `_meta` envelope, so whichever instance answers knows
 * whether the host renders views. A 2025 request has only what `initialize` declared, and
 * this server is stateless: the tools/call after it arrives with none, so there the
 * person confirms only when the model asks (`confirm: "person"`).
 */
export function callerCapabilities(envelope: unknown, initialized: unknown): unknown {
  const declared = (envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  return declared ?? initialized;
}

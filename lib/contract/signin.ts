// Sign-in and account security: the app's sign-in link exchange, password change and
// the access tokens an account has handed out (listed and revoked from the web app).
import { z } from 'zod';
import { SCOPES, defineEndpoint } from './define';
import { API_PATHS } from './paths';
import { LIMITS, attributionFields, isoDateTime } from './schemas';
import { freeText, singleLine } from './text';

export const accessTokenSchema = z.object({
  id: z.string(),
  label: z.string().nullable().describe("Where the token came from, e.g. 'registration' or 'mobile app'"),
  agentName: z.string().nullable(),
  agentSessionId: z.string().nullable(),
  scopes: z.array(z.string()),
  created_at: isoDateTime,
  last_used_at: isoDateTime.nullable(),
  revoked_at: isoDateTime.nullable(),
  confirmed_at: isoDateTime
    .nullable()
    .describe(
      'When the person, signed in on the web, chose to keep this token; until then the web app asks them to keep or revoke it',
    ),
  active: z.boolean(),
});

export const listTokens = defineEndpoint({
  id: 'list_access_tokens',
  title: 'List access tokens',
  method: 'GET',
  path: API_PATHS.tokens,
  auth: 'profile:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['accounts'],
  summary: 'Your access tokens (values are never shown)',
  description: 'Every bearer token of the account, live ones first: metadata only (values are stored as hashes).',
  response: z.object({ tokens: z.array(accessTokenSchema) }),
});

export const revokeToken = defineEndpoint({
  id: 'revoke_access_token',
  title: 'Revoke a token',
  method: 'POST',
  path: API_PATHS.revokeToken,
  auth: 'profile:write',
  // the token stops working for good; revoking it again returns it unchanged
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  tags: ['accounts'],
  summary: 'Revoke one access token',
  toolHint: 'Only when the person asks; a revoked token stops working at once.',
  description:
    'The token stops working on the very next request. Idempotent: revoking a revoked token returns it unchanged. A token may revoke itself.',
  params: z.object({ tokenId: singleLine().min(1).max(80) }),
  body: z.strictObject({ ...attributionFields }),
  bodyOptional: true,
  response: z.object({ success: z.literal(true), token: accessTokenSchema }),
  errors: ['not_found'],
});

export const changePasswordBodySchema = z.strictObject({
  // Free text: a password set before this rule may hold a tab; it must still work.
  currentPassword: freeText().min(1).max(200),
  newPassword: singleLine()
    .min(LIMITS.passwordMin, `Use at least ${LIMITS.passwordMin} characters for the new password`)
    .max(200),
  revokeAllTokens: z.boolean().nullish().describe('Also revoke every access token, this one included'),
  ...attributionFields,
});

export const changePassword = defineEndpoint({
  id: 'change_password',
  title: 'Change password',
  method: 'POST',
  path: API_PATHS.password,
  auth: 'profile:write',
  // replaces the password and signs out other sessions; the old password fails a second call
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  tags: ['accounts'],
  summary: 'Change the password (needs the current one)',
  toolHint: 'Only when the person asks; it signs out every other token.',
  description:
    'Checks currentPassword, then sets newPassword. Signs out every other web session of the account; access tokens keep working ' +
    "unless revokeAllTokens is true, which revokes them all in the same transaction, the caller's included (its next request gets 401). " +
    'Wrong current passwords count as failed sign-ins (429 rate_limited with Retry-After).',
  body: changePasswordBodySchema,
  response: z.object({
    success: z.literal(true),
    signed_out_sessions: z.number().int(),
    revoked_tokens: z.number().int(),
  }),
  errors: ['validation_failed', 'wrong_password', 'conflict', 'rate_limited'],
  requestExample: { currentPassword: '<GENERATED_PASSWORD>', newPassword: 'a new long passphrase' },
});

export const exchangeSigninLink = defineEndpoint({
  id: 'exchange_signin_link',
  title: 'Sign in with a link',
  method: 'POST',
  path: API_PATHS.signinLink,
  auth: 'none',
  // adds a token; the link works once
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  tags: ['accounts'],
  summary: 'Trade a single-use sign-in link token for an access token',
  toolHint: 'Only for a link the person gave you; each link works once.',
  description:
    'The mobile app gets the token in its app link (APP_LINK_URL) from the sign-in page and posts it here. ' +
    'The link is used up; a second use answers 410 signin_link_used, an expired link 410 signin_link_expired.',
  body: z.strictObject({ token: singleLine().min(1).max(200) }),
  response: z.object({
    success: z.literal(true),
    user: z.object({ id: z.string(), email: z.string(), slug: z.string(), profile_url: z.string() }),
    auth: z.object({ token: z.string(), token_type: z.literal('Bearer'), scopes: z.array(z.enum(SCOPES)) }),
  }),
  errors: ['validation_failed', 'not_found', 'signin_link_used', 'signin_link_expired'],
});

// Art. 20 and Art. 17 (issue 31). Not MCP tools (lib/mcp/tools.ts); "Your data" in
// docs/decisions/accounts-and-profiles.md has the details.
export const exportMyData = defineEndpoint({
  id: 'export_my_data',
  title: 'Export your data',
  method: 'GET',
  path: API_PATHS.exportData,
  auth: 'profile:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  mcp: { exposed: false, why: 'the person downloads their own data from Settings; a model needs none of it at once' },
  tags: ['accounts'],
  summary: 'Download all your data as one JSON file (web session or full-access token)',
  response: z.looseObject({ format: z.literal('buddy-match-export/1'), exported_at: isoDateTime }),
  errors: ['insufficient_scope'],
});

export const deleteMyAccount = defineEndpoint({
  id: 'delete_my_account',
  title: 'Delete your account',
  method: 'DELETE',
  path: API_PATHS.me,
  auth: 'profile:write',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mcp: { exposed: false, why: 'irreversible and the person’s own decision, made in Settings or with their password' },
  tags: ['accounts'],
  summary: 'Delete your account for good (password, or a web sign-in in the last 10 minutes)',
  body: z.strictObject({ password: freeText().max(200).nullish() }),
  bodyOptional: true,
  response: z.object({ success: z.literal(true), deleted: z.literal(true) }),
  errors: ['wrong_password', 'rate_limited'],
});

export const signinEndpoints = [
  listTokens,
  revokeToken,
  changePassword,
  exchangeSigninLink,
  exportMyData,
  deleteMyAccount,
] as const;

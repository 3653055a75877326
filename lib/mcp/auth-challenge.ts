// When /api/mcp answers HTTP 401 instead of running a tool (MCP authorization 2026-07-28,
// "Authorization Server Discovery" and "Scope Selection Strategy"; RFC 9728 §5.1): that
// 401 and its WWW-Authenticate header are how OAuth hosts (ChatGPT, Claude, Cursor) learn
// to sign the person in. So:
// - a bearer token that is not valid (unknown, revoked, expired, for another resource)
//   gets 401 with error="invalid_token", on any request;
// - no token on a tools/call of a tool that needs one gets 401 naming all seven scopes:
//   an assistant acting for a person in a buddy app needs them all, and asking for one
//   scope per tool would send the person back to a consent screen at every new kind of
//   tool (MCP lets the server choose the challenged set; 403 insufficient_scope still
//   names the one scope a call lacks);
// - everything else goes on: initialize, tools/list and the public tools (register,
//   signup instructions, activities, events, public profiles) work without a token, and a
//   valid token never meets a 401 here.
import { getDb } from '@/db';
import { bearerToken, findTokenOwner } from '../http/bearer';
import { SCOPES } from '../contract/define';
import { ERROR_ADVICE } from '../core/errors';
import { resourceMetadataUrl } from '../accounts/oauth-resources';
import type { ToolDefinition } from './tools';

function challenge(baseUrl: string, params: Record<string, string>, message: string): Response {
  const header = [
    'Bearer',
    Object.entries({ resource_metadata: resourceMetadataUrl(baseUrl, '/api/mcp'), ...params })
      .map(([k, v]) => `${k}="${v}"`)
      .join(', '),
  ].join(' ');
  const body = { error: { code: 'unauthorized', message, hint: ERROR_ADVICE.unauthorized } };
  return new Response(JSON.stringify(body), {
    status: 401,
    headers: { 'content-type': 'application/json', 'www-authenticate': header, 'cache-control': 'no-store' },
  });
}

export async function mcpAuthChallenge(
  request: Request,
  parsed: unknown,
  tools: readonly ToolDefinition[],
  baseUrl: string,
): Promise<Response | null> {
  const authorization = request.headers.get('authorization');
  if (authorization) {
    const token = bearerToken(authorization);
    if (token && (await findTokenOwner(getDb(), token))) return null;
    return challenge(baseUrl, { error: 'invalid_token' }, 'Invalid, expired or revoked bearer token');
  }
  if (request.method !== 'POST') return null;
  const message = parsed as { method?: unknown; params?: { name?: unknown } } | undefined;
  if (!message || typeof message !== 'object' || message.method !== 'tools/call') return null;
  const tool = tools.find((t) => t.name === message.params?.name);
  if (!tool || tool.spec.auth === 'none') return null;
  return challenge(
    baseUrl,
    { scope: SCOPES.join(' ') },
    `The ${tool.name} tool acts for a person: connect with OAuth, or send a bearer token`,
  );
}

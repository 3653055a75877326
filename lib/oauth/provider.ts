// The OAuth 2.1 authorization server for assistants (issue 19), built on oidc-provider 8
// (certified OpenID/OAuth implementation), mounted in the node:http server under /oauth.
// Followed: MCP authorization 2026-07-28 (compatible with 2025-06-18 and 2025-11-25),
// RFC 8414 metadata, RFC 7591 dynamic registration, client ID metadata documents,
// PKCE S256 (required), RFC 8707 resource indicators, RFC 9207 `iss` in responses,
// refresh-token rotation with reuse detection (a reused refresh token revokes the grant).
import crypto from 'node:crypto';
import Provider, { type Configuration, errors } from 'oidc-provider';
import { getDb } from '@/db';
import { SCOPES } from '../contract/define';
import { config } from '../config';
import { PostgresAdapter } from './adapter';
import { loadOauthSigningKey } from './keys';
import { isOwnResource, oauthResources } from './resources';

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  end_session: '/oauth/logout',
  userinfo: '/oauth/userinfo',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
} as const;

export const ACCESS_TOKEN_TTL_S = 3600;

let provider: Promise<Provider> | undefined;

/** One provider per process, created on first use (it needs the stored keys). */
export function oauthProvider(): Promise<Provider> {
  provider ??= createProvider();
  return provider;
}

async function createProvider(): Promise<Provider> {
  const cfg = config();
  const db = getDb();
  const resources = oauthResources(cfg.publicBaseUrl);
  const signingKey = await loadOauthSigningKey(db);
  const cookieKey = crypto.createHash('sha256').update(`oauth-cookies:${signingKey.d}`).digest('base64url');

  const configuration: Configuration = {
    adapter: PostgresAdapter,
    clients: [],
    scopes: [...SCOPES],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      Interaction: 15 * 60,
      Session: 15 * 60,
      Grant: 365 * 24 * 3600,
      RefreshToken: 60 * 24 * 3600,
      DeviceCode: 10 * 60,
      IdToken: 3600,
    },
    routes: OAUTH_ROUTES,
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    cookies: { keys: [cookieKey], long: { signed: true, httpOnly: true, sameSite: 'lax' }, short: { signed: true, httpOnly: true, sameSite: 'lax' } },
    jwks: { keys: [signingKey] },
    findAccount: async (_ctx, sub) => {
      const user = await db.selectFrom('users').select('id').where('id', '=', sub).where('disabled_at', 'is', null).executeTakeFirst();
      return user ? { accountId: user.id, claims: () => ({ sub: user.id }) } : undefined;
    },
    discovery: { client_id_metadata_document_supported: true, service_documentation: `${cfg.publicBaseUrl}/AGENTS.md` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Clients following MCP 2025-03-26 send no resource: the token is for the MCP server.
        defaultResource: () => resources.mcp,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (!isOwnResource(cfg.publicBaseUrl, resourceIndicator)) throw new errors.InvalidTarget('this server issues tokens only for its own MCP server and API');
          return { scope: SCOPES.join(' '), audience: resourceIndicator, accessTokenFormat: 'opaque', accessTokenTTL: ACCESS_TOKEN_TTL_S };
        },
      },
    },
  };
  const created = new Provider(cfg.publicBaseUrl, configuration);
  // Behind TRUST_PROXY proxies the issuer is https while the socket is not.
  created.proxy = cfg.trustedProxies > 0;
  return created;
}

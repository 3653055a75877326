// The OAuth 2.1 authorization server for assistants (issue 19), built on oidc-provider 8
// (certified OpenID/OAuth implementation), mounted in the node:http server under /oauth.
// Followed: MCP authorization 2026-07-28 (compatible with 2025-06-18 and 2025-11-25),
// RFC 8414 metadata, RFC 7591 dynamic registration, client ID metadata documents,
// PKCE S256 (required), RFC 8707 resource indicators, RFC 9207 `iss` in responses,
// refresh-token rotation with reuse detection (a reused refresh token revokes the grant).
import crypto from 'node:crypto';
import { sql } from 'kysely';
import Provider, { type Configuration, errors } from 'oidc-provider';
import { getDb } from '@/db';
import { SCOPES } from '../contract/define';
import { config } from '../config';
import { PostgresAdapter } from './adapter';
import { loadOauthSigningKey } from './keys';
import { logError, logLine } from '../core/log';
import { DEVICE_CLIENT_ID, DEVICE_CLIENT_NAME, isOwnResource, oauthResources } from '../accounts/oauth-resources';
import { renderOauthErrorPage, successSource, userCodeConfirmSource, userCodeInputSource } from './device-pages';
import { checkClientMetadata, guardedHttpOptions, UNRECOGNIZED_FETCHED_FIELDS } from './client-rules';
import { clientIpFromHeaders } from '../http/ip';

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

/** How long each thing oidc-provider stores lives, in seconds (the privacy page names some of them). */
export const OAUTH_TTL_SECONDS = {
  AccessToken: ACCESS_TOKEN_TTL_S,
  AuthorizationCode: 60,
  Interaction: 15 * 60,
  Session: 15 * 60,
  /** A connection the person approved, unless they end it sooner. */
  Grant: 365 * 24 * 3600,
  /** Rotated on every use; one unused this long is dead. */
  RefreshToken: 60 * 24 * 3600,
  DeviceCode: 10 * 60,
  IdToken: 3600,
} as const;

/**
 * The client any assistant may use for device sign-in without registering first: public
 * (no secret), device code and refresh grants only, so it can never receive a code at a
 * redirect URI.
 */
export const DEVICE_CLIENT = {
  client_id: DEVICE_CLIENT_ID,
  client_name: DEVICE_CLIENT_NAME,
  application_type: 'native' as const,
  grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: 'none' as const,
};

/** The `interval` (RFC 8628 §3.2) the device authorization response names, in seconds. */
export const DEVICE_POLL_INTERVAL_S = 5;

/** True when this poll came sooner than the device's interval (which then grows by 5 s). */
async function pollingTooSoon(db: ReturnType<typeof getDb>, deviceCode: string): Promise<boolean> {
  const { rows } = await sql<{ slow: boolean }>`
    insert into oauth_payloads (model, id, payload, expires_at)
    values ('DevicePoll', ${deviceCode}, jsonb_build_object('interval', ${DEVICE_POLL_INTERVAL_S}::int, 'last', (extract(epoch from clock_timestamp()) * 1000)::bigint, 'slow', false), now() + interval '30 minutes')
    on conflict (model, id) do update set payload =
      case when (excluded.payload->>'last')::bigint - (oauth_payloads.payload->>'last')::bigint < (oauth_payloads.payload->>'interval')::bigint * 1000
        then jsonb_build_object('interval', (oauth_payloads.payload->>'interval')::int + 5, 'last', excluded.payload->'last', 'slow', true)
        else jsonb_build_object('interval', oauth_payloads.payload->'interval', 'last', excluded.payload->'last', 'slow', false)
      end
    returning (payload->>'slow')::boolean as slow`.execute(db);
  return rows[0]?.slow === true;
}

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
    clients: [DEVICE_CLIENT],
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
    // Issue 28: the validator sees the whole metadata of every client (registered, stored,
    // or a fetched metadata document; ctx only while registering) and refuses what would
    // make the provider fetch a URL, the device grant for anyone but the device client, and
    // names that pass for this service (lib/oauth/client-rules.ts).
    extraClientMetadata: {
      properties: UNRECOGNIZED_FETCHED_FIELDS,
      validator: (ctx, key, _value, metadata) => {
        if (key === UNRECOGNIZED_FETCHED_FIELDS[0]) checkClientMetadata(metadata, ctx !== undefined);
      },
    },
    // Nothing above lets a client name a URL to fetch; should oidc-provider fetch anyway,
    // it goes through the photoURL guard, and never for a sector identifier.
    httpOptions: guardedHttpOptions,
    // (An option of oidc-provider 8 its type declarations leave out.)
    ...{ sectorIdentifierUriValidate: () => false },
    // Browser-based MCP clients (an inspector, a web app) exchange codes from the page:
    // public clients may call the token and revocation endpoints cross-origin (PKCE binds
    // the code to them); confidential clients, whose secrets belong on a server, may not.
    clientBasedCORS: (_ctx, _origin, client) => client.clientAuthMethod === 'none',
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: OAUTH_TTL_SECONDS,
    routes: OAUTH_ROUTES,
    // An error the browser sees (a client that cannot be loaded: its metadata document
    // unreachable or of the wrong shape, a bad redirect) gets a page in the site's style,
    // not oidc-provider's "oops!"; the reason goes to the log, not to the person.
    renderError: async (ctx, out, error) => {
      logLine({
        event: 'oauth_error_page',
        client_id: typeof ctx.oidc?.params?.client_id === 'string' ? ctx.oidc.params.client_id.slice(0, 300) : null,
        error: out.error,
        reason: String(out.error_description ?? (error instanceof Error ? error.message : '')).slice(0, 500),
      });
      renderOauthErrorPage(ctx, out.error);
    },
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    cookies: {
      keys: [cookieKey],
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    jwks: { keys: [signingKey] },
    findAccount: async (_ctx, sub) => {
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('id', '=', sub)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
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
      // RFC 8628: for assistants without a browser, and for one that lost its token.
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        // Where and when the code was asked for, shown on the confirmation page: the address
        // our server stamped (server/start.ts), never a header the requester could choose.
        deviceInfo: (ctx) => ({
          ip: clientIpFromHeaders({ get: (name: string) => ctx.get(name) || null }),
          requestedAt: new Date().toISOString(),
        }),
        userCodeInputSource,
        userCodeConfirmSource,
        successSource: async (ctx) => {
          const accountId = ctx.oidc.session?.accountId;
          const user = accountId
            ? await db
                .selectFrom('users')
                .select('awaiting_person_consent')
                .where('id', '=', accountId)
                .executeTakeFirst()
            : undefined;
          await successSource(ctx, user?.awaiting_person_consent ?? false);
        },
      },
      resourceIndicators: {
        enabled: true,
        // Clients following MCP 2025-03-26 send no resource: the token is for the MCP server.
        defaultResource: () => resources.mcp,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (!isOwnResource(cfg.publicBaseUrl, resourceIndicator))
            throw new errors.InvalidTarget('this server issues tokens only for its own MCP server and API');
          return {
            scope: SCOPES.join(' '),
            audience: resourceIndicator,
            accessTokenFormat: 'opaque',
            accessTokenTTL: ACCESS_TOKEN_TTL_S,
          };
        },
      },
    },
  };
  const created = new Provider(cfg.publicBaseUrl, configuration);
  // RFC 8628 §3.5 slow_down, which oidc-provider 8 defines but never sends: a device
  // still waiting for the person that polls sooner than its interval is told to slow
  // down, and its interval grows by 5 s. Counted in PostgreSQL, so it holds across instances.
  created.use(async (ctx, next) => {
    await next();
    // RFC 8628 §3.2: the interval to poll at, which oidc-provider 8 leaves out; and no
    // verification_uri_complete (OPTIONAL there): the device page never takes the code from
    // a link (issue 28), so a link "with the code" would only mislead the assistant (issue 43 §6).
    if (ctx.path === OAUTH_ROUTES.device_authorization && ctx.method === 'POST' && ctx.status === 200) {
      const body = ctx.body as { device_code?: string; verification_uri_complete?: string } | undefined;
      if (body?.device_code) {
        const { verification_uri_complete: _misleading, ...rest } = body;
        ctx.body = { ...rest, interval: DEVICE_POLL_INTERVAL_S };
      }
      return;
    }
    if (ctx.path !== OAUTH_ROUTES.token || ctx.method !== 'POST') return;
    const deviceCode = (ctx.oidc?.params as { device_code?: unknown } | undefined)?.device_code;
    if (
      (ctx.body as { error?: string } | undefined)?.error !== 'authorization_pending' ||
      typeof deviceCode !== 'string'
    )
      return;
    if (await pollingTooSoon(db, deviceCode)) {
      ctx.status = 400;
      ctx.body = {
        error: 'slow_down',
        error_description: 'Polled sooner than the interval: wait 5 seconds longer between polls from now on',
      };
    }
  });
  // oidc-provider turns an exception into a 500 page and an event; the event is our log line.
  created.on('server_error', (_ctx, error) => logError('oauth server error', error));
  // Behind TRUST_PROXY proxies the issuer is https while the socket is not.
  created.proxy = cfg.trustedProxies !== 0;
  return created;
}

// How an assistant connects to a person's account, per kind of host. One text for the
// register tool's answer, the MCP server instructions, AGENTS.md, SIGNUP.md and
// llms.txt, so no surface tells a model to do what its host cannot.
import { DEVICE_CLIENT_ID } from '../accounts/oauth-resources';

export interface ConnectWay {
  /** Which hosts this is for. */
  hosts: string;
  how: string;
}

export function connectWays(baseUrl: string): ConnectWay[] {
  return [
    {
      hosts:
        'OAuth hosts (ChatGPT connectors, Claude connectors, Cursor, any client following the MCP authorization spec)',
      how: `nothing to copy: the first tool that acts for the person answers HTTP 401 with WWW-Authenticate, the host opens Buddy Match's sign-in (${baseUrl}/oauth/authorize), where the person signs in, or creates the account, and approves. Tell the person a Buddy Match page will open.`,
    },
    {
      hosts: 'Clients that can set an HTTP header (curl, SDKs, Claude Code, custom bots)',
      how: 'send "Authorization: Bearer <auth.token>" (from register) on every request or MCP connection.',
    },
    {
      hosts: 'Anything else, and an agent that lost its token or finds the email already registered',
      how: `device sign-in (RFC 8628): POST ${baseUrl}/oauth/device/auth with client_id=${DEVICE_CLIENT_ID}&resource=${baseUrl}/api/mcp, show the person verification_uri and user_code (they type the code there: a link does not fill it in), then POST ${baseUrl}/oauth/token with grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=<device_code>&client_id=${DEVICE_CLIENT_ID} every "interval" seconds until it answers access_token (authorization_pending: keep waiting; slow_down: add 5 s).`,
    },
  ];
}

/** The ways as plain lines, for tool results and instructions. */
export function connectText(baseUrl: string): string {
  return connectWays(baseUrl)
    .map((way) => `- ${way.hosts}: ${way.how}`)
    .join('\n');
}

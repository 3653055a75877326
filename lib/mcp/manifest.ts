// GET /.well-known/mcp.json: how to reach the MCP server and what it offers, generated
// from the same tool definitions the server registers.
import { API_VERSION } from '../docs/index-document';
import { LEGAL_PATHS } from '../web/legal-paths';
import { MCP_SERVER_NAME } from './server';
import { GUIDE_TOOL } from './guide-tool';
import { EXAMPLE_PROMPTS } from '../guides/example-prompts';
import type { ToolDefinition } from './tools';
import { DEVICE_CLIENT_ID, resourceMetadataUrl } from '../accounts/oauth-resources';

/** The server's name for people: the manifest's and the MCP Registry entry's (server.json) title. */
export const MCP_SERVER_TITLE = 'Buddy Match';

/** What the server does, in one breath: the manifest's description (server.json has its own, of at most 100 characters). */
export const MCP_SERVER_DESCRIPTION =
  'Find people to do things with, through your assistant: sign up, find buddies nearby who share your activities ' +
  'and free time, ask them, chat, plan a meeting, and join small group meetups.';

export function buildMcpManifest(tools: readonly ToolDefinition[], baseUrl: string) {
  return {
    name: MCP_SERVER_NAME,
    title: MCP_SERVER_TITLE,
    description: MCP_SERVER_DESCRIPTION,
    version: API_VERSION,
    endpoint: `${baseUrl}/api/mcp`,
    transport: { type: 'streamable-http', url: `${baseUrl}/api/mcp`, stateless: true },
    authentication: {
      type: 'bearer',
      header: 'Authorization: Bearer <ACCESS_TOKEN>',
      obtain: 'Call the register tool (no token needed); its result holds auth.token.',
      required_by: 'every tool whose auth is not "none"',
      oauth: {
        protected_resource_metadata: resourceMetadataUrl(baseUrl, '/api/mcp'),
        authorization_server: baseUrl,
        note: 'OAuth 2.1 per the MCP authorization specification: a tool call without a token answers 401 with WWW-Authenticate.',
      },
      device_authorization: {
        endpoint: `${baseUrl}/oauth/device/auth`,
        client_id: DEVICE_CLIENT_ID,
        note: 'RFC 8628, for agents without a browser or that lost their token.',
      },
    },
    documentation: {
      signup_guide: `${baseUrl}/SIGNUP.md`,
      agents_guide: `${baseUrl}/AGENTS.md`,
      openapi: `${baseUrl}/.well-known/openapi.json`,
      llms_txt: `${baseUrl}/llms.txt`,
      privacy_policy: `${baseUrl}${LEGAL_PATHS.privacy}`,
      terms_of_use: `${baseUrl}${LEGAL_PATHS.terms}`,
    },
    // What a person can ask an assistant that has this connected, and the tools each takes (tested).
    example_prompts: EXAMPLE_PROMPTS,
    tools: [
      ...tools.map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        auth: tool.spec.auth,
        http: `${tool.spec.method} ${tool.spec.path}`,
        annotations: tool.annotations,
      })),
      // The guides as a tool (no HTTP endpoint of its own: they are /SIGNUP.md, /AGENTS.md, /llms.txt).
      {
        name: GUIDE_TOOL.name,
        title: GUIDE_TOOL.title,
        description: GUIDE_TOOL.description,
        auth: 'none',
        annotations: GUIDE_TOOL.annotations,
      },
    ],
  };
}

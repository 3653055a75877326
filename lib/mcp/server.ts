// The MCP server behind /api/mcp: registers one tool per contract endpoint on an
// McpServer (SDK v2, via mcp-handler) and answers each call through the route handler.
import type { McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { API_VERSION } from '../docs/index-document';
import { callRoute, type RouteHandler } from './call';
import type { ToolDefinition } from './tools';

export const MCP_SERVER_NAME = 'buddy-match';

export function serverInstructions(baseUrl: string): string {
  return [
    'Buddy Match signs a person up to a buddy-finding app and acts for them.',
    'Start with the register tool (ask the person for their email and name first; never invent details).',
    'It returns auth.token: send it as the HTTP header "Authorization: Bearer <token>" on this MCP connection for every other tool.',
    'Show the person auth.mobile_signin_url and auth.generated_password, and repeat warnings.schedule_summary for them to confirm.',
    'Then poll check-inbox style tools every 30-60 seconds while active. Relay only what the tools return.',
    `Guides: ${baseUrl}/SIGNUP.md and ${baseUrl}/AGENTS.md.`,
  ].join(' ');
}

/**
 * The tool's schemas as a Standard Schema whose JSON form is the contract's and whose
 * validation passes everything through: the route parses the arguments itself with the
 * contract's zod schemas, so a bad argument gets the same `validation_failed` envelope
 * (with error.fields) as over HTTP instead of a generic SDK message.
 */
function advertisedSchema(json: (target?: string) => Record<string, unknown>): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'buddy-match-contract',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: (options) => json(options.target), output: (options) => json(options.target) },
    },
  };
}

export function registerTools(
  server: McpServer,
  tools: readonly ToolDefinition[],
  handlers: Readonly<Record<string, RouteHandler>>,
  incoming: Request,
  baseUrl: string,
): void {
  for (const tool of tools) {
    const handler = handlers[tool.name];
    if (!handler) throw new Error(`No route handler for the MCP tool ${tool.name}: add it to app/api/mcp/handlers.ts`);
    const output = tool.outputSchema();
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: advertisedSchema((target) => tool.inputSchema(target)),
        ...(output ? { outputSchema: advertisedSchema((target) => tool.outputSchema(target) ?? {}) } : {}),
        annotations: tool.annotations,
      },
      async (args) => callRoute(tool, handler, args, incoming, baseUrl),
    );
  }
}

export const MCP_VERSION = API_VERSION;

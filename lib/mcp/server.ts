// The MCP server behind /api/mcp: registers one tool per contract endpoint on an
// McpServer (SDK v2) and answers each call through the route handler.
import type { McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { API_VERSION } from '../docs/index-document';
import { callRoute, type IncomingCall, type RouteHandler, type ToolResult } from './call';
import { GUIDE_TOOL, guideResult } from './guide-tool';
import type { AgentEndpointSpec } from '../contract/define';
import type { ToolAnnotations } from './annotations';
import { toolDefinitions, type ToolDefinition } from './tools';

export const MCP_SERVER_NAME = 'buddy-match';

export function serverInstructions(baseUrl: string): string {
  return [
    'Buddy Match signs a person up to a buddy-finding app and acts for them.',
    'Start with the register tool (ask the person for their email and name first; never invent details).',
    'Then connect to the account the way this host can: an OAuth host signs the person in by itself when a tool answers 401 (tell them a Buddy Match page will open); a client that sets headers sends "Authorization: Bearer <auth.token>"; anything else uses device sign-in (the register answer and get_guide agents say how).',
    'Show the person auth.mobile_signin_url and auth.generated_password, and repeat warnings.schedule_summary for them to confirm.',
    'Then long-poll get_inbox (cursor from its last answer, wait=25) while active. Relay only what the tools return.',
    `When unsure, call get_guide (signup, agents) or read ${baseUrl}/SIGNUP.md and ${baseUrl}/AGENTS.md.`,
  ].join(' ');
}

/**
 * The tool's schemas as a Standard Schema whose JSON form is the contract's and whose
 * validation passes everything through: the route parses the arguments itself with the
 * contract's zod schemas, so a bad argument gets the same `validation_failed` envelope
 * (with error.fields) as over HTTP instead of a generic SDK message.
 */
function advertisedSchema(
  json: (target?: string) => Record<string, unknown>,
): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'buddy-match-contract',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: (options) => json(options.target), output: (options) => json(options.target) },
    },
  };
}

/** A tool as tools/list advertises it (what a host puts in the model's context). */
export interface AdvertisedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

export function advertisedTools(endpoints: readonly AgentEndpointSpec[]): AdvertisedTool[] {
  const guide: AdvertisedTool = { ...GUIDE_TOOL, inputSchema: GUIDE_TOOL.inputSchema };
  return [
    guide,
    ...toolDefinitions(endpoints).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema(),
      annotations: tool.annotations,
    })),
  ];
}

/** A tool's registration, built once per process: only the McpServer it goes on is per exchange. */
export interface PreparedTool {
  name: string;
  config: { description: string; inputSchema: ReturnType<typeof advertisedSchema>; annotations: ToolAnnotations };
  call: (args: Record<string, unknown>, incoming: IncomingCall | undefined, baseUrl: string) => Promise<ToolResult>;
}

export function prepareTools(
  tools: readonly ToolDefinition[],
  handlers: Readonly<Record<string, RouteHandler>>,
): PreparedTool[] {
  const guide: PreparedTool = {
    name: GUIDE_TOOL.name,
    config: {
      description: GUIDE_TOOL.description,
      inputSchema: advertisedSchema(() => GUIDE_TOOL.inputSchema),
      annotations: GUIDE_TOOL.annotations,
    },
    call: async (args) => guideResult(args),
  };
  return [
    guide,
    ...tools.map((tool): PreparedTool => {
      const handler = handlers[tool.name];
      if (!handler)
        throw new Error(`No route handler for the MCP tool ${tool.name}: add it to app/api/mcp/handlers.ts`);
      return {
        name: tool.name,
        // No title: hosts show the name (get_inbox), and tools/list stays small.
        config: {
          description: tool.description,
          inputSchema: advertisedSchema((target) => tool.inputSchema(target)),
          annotations: tool.annotations,
        },
        call: (args, incoming, baseUrl) => callRoute(tool, handler, args, incoming, baseUrl),
      };
    }),
  ];
}

/** Puts the prepared tools on this exchange's server, each call carrying the exchange's MCP request. */
export function registerTools(
  server: McpServer,
  prepared: readonly PreparedTool[],
  incoming: IncomingCall | undefined,
  baseUrl: string,
): void {
  for (const tool of prepared)
    server.registerTool(tool.name, tool.config, async (args) => tool.call(args, incoming, baseUrl));
}

export const MCP_VERSION = API_VERSION;

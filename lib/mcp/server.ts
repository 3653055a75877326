// The MCP server behind /api/mcp: registers one tool per contract endpoint on an
// McpServer (SDK v2) and answers each call through the route handler.
import type { McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { API_VERSION } from '../docs/index-document';
import { config } from '../config';
import {
  apiErrorResult,
  callRoute,
  type IncomingCall,
  type LoadRouteHandler,
  type RouteHandler,
  type ToolResult,
} from './call';
import { endpoints } from '../contract';
import { ApiError } from '../core/errors';
import { GUIDE_TOOL, guideResult } from './guide-tool';
import type { AgentEndpointSpec } from '../contract/define';
import type { ToolAnnotations } from './annotations';
import { toolDefinitions, type ToolDefinition } from './tools';
import type { JsonSchema } from '../docs/json-schema';
import {
  CONFIRM_ARGUMENT,
  CONFIRM_TOOL,
  confirmAction,
  isConfirmable,
  prepareAction,
  waitsForPerson,
} from './confirm-tool';
import { callerCapabilities, type ConfirmAction } from './person-confirm';
import { hostLocationFrom } from '../profiles/host-location';
import { VIEW_MIME_TYPE, VIEWS, viewCsp, viewHtml, viewOfTool } from './views/registry';

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
  /** For people (hosts' tool lists, app directories); the model reads name and description. */
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  _meta?: { ui: { resourceUri?: string; visibility?: readonly string[] } };
}

/** `_meta.ui` for a tool shown in a view (MCP Apps); hosts without views ignore it. */
function uiMeta(name: string): Pick<AdvertisedTool, '_meta'> {
  const view = viewOfTool(name);
  return view ? { _meta: { ui: { resourceUri: view.uri } } } : {};
}

/** The confirmable tools take `confirm` over MCP only (issue 32 §2); the REST bodies are unchanged. */
function toolInputSchema(tool: ToolDefinition, target?: string): JsonSchema {
  const schema = tool.inputSchema(target);
  if (!isConfirmable(tool.name)) return schema;
  const properties = { ...(schema.properties as Record<string, JsonSchema>), confirm: CONFIRM_ARGUMENT };
  return { ...schema, properties };
}

let measuredBytes: number | undefined;
/** The size of tools/list as this server advertises it (fixed at build), for the guides to state. */
export function toolListBytes(): number {
  measuredBytes ??= Buffer.byteLength(JSON.stringify({ tools: advertisedTools(endpoints) }));
  return measuredBytes;
}

export function advertisedTools(endpoints: readonly AgentEndpointSpec[]): AdvertisedTool[] {
  const guide: AdvertisedTool = { ...GUIDE_TOOL, inputSchema: GUIDE_TOOL.inputSchema };
  return [
    guide,
    ...toolDefinitions(endpoints).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toolInputSchema(tool),
      annotations: tool.annotations,
      ...uiMeta(tool.name),
    })),
    { ...CONFIRM_TOOL, inputSchema: CONFIRM_TOOL.inputSchema },
  ];
}

/** A tool's registration, built once per process: only the McpServer it goes on is per exchange. */
export interface PreparedTool {
  name: string;
  config: {
    title: string;
    description: string;
    inputSchema: ReturnType<typeof advertisedSchema>;
    annotations: ToolAnnotations;
    _meta?: Record<string, unknown>;
  };
  /** `capabilities`: the host's, for the tools that act differently when it renders views. */
  call: (
    args: Record<string, unknown>,
    incoming: IncomingCall | undefined,
    baseUrl: string,
    capabilities: () => unknown,
  ) => Promise<ToolResult>;
}

type ToolRoute = { tool: ToolDefinition; loadHandler: LoadRouteHandler };
type Routes = ReadonlyMap<string, ToolRoute>;

/**
 * A tool whose action reaches another human (issue 32 §2): done at once, or prepared for a
 * person's tap when asked (`confirm: "person"`) or when the operator's rule requires it.
 */
function confirmableCall(kind: ConfirmAction, own: ToolRoute, routes: Routes): PreparedTool['call'] {
  return async (args, incoming, baseUrl, capabilities) => {
    const { confirm, ...rest } = args;
    // Never dropped silently: a confirm this server does not know is refused, not ignored.
    if (confirm !== undefined && confirm !== 'person')
      return apiErrorResult(
        new ApiError('validation_failed', 'confirm must be "person" or left out', {
          fields: { confirm: 'Expected "person"' },
        }),
      );
    try {
      if (!(await waitsForPerson(kind, confirm, capabilities(), rest, incoming)))
        return callRoute(own.tool, own.loadHandler, rest, incoming, baseUrl);
    } catch (error) {
      return apiErrorResult(error);
    }
    // The view shows the plan the person accepts, read as they may read it (404 when it is not theirs).
    const getPlan = routes.get('get_plan');
    if (kind === 'accept_plan' && getPlan && typeof rest.planId === 'string') {
      const read = await callRoute(getPlan.tool, getPlan.loadHandler, { planId: rest.planId }, incoming, baseUrl);
      if (read.isError) return read;
      return prepareAction(kind, rest, incoming, JSON.parse(read.content[0]?.text ?? '{}'));
    }
    return prepareAction(kind, rest, incoming);
  };
}

/** Contract path → its route module, loaded when first needed (app/api/route-modules.ts, generated from the contract). */
export type RouteModuleLoaders = Readonly<Record<string, () => Promise<Partial<Record<string, unknown>>>>>;

/** The tool's own route handler: the export named by its method, of the module its contract path names. */
export function routeHandlerLoader(tool: ToolDefinition, modules: RouteModuleLoaders): LoadRouteHandler {
  const { path, method } = tool.spec;
  const load = modules[path];
  if (!load) throw new Error(`No route module for the MCP tool ${tool.name} (${path}): run npm run build`);
  return async () => {
    const handler = (await load())[method];
    if (typeof handler !== 'function') throw new Error(`The route module of ${path} exports no ${method}`);
    return handler as RouteHandler;
  };
}

export function prepareTools(tools: readonly ToolDefinition[], modules: RouteModuleLoaders): PreparedTool[] {
  const guide: PreparedTool = {
    name: GUIDE_TOOL.name,
    config: {
      title: GUIDE_TOOL.title,
      description: GUIDE_TOOL.description,
      inputSchema: advertisedSchema(() => GUIDE_TOOL.inputSchema),
      annotations: GUIDE_TOOL.annotations,
    },
    call: async (args) => guideResult(args, { toolListBytes: toolListBytes() }),
  };
  const routes = new Map<string, ToolRoute>();
  for (const tool of tools) routes.set(tool.name, { tool, loadHandler: routeHandlerLoader(tool, modules) });
  const prepared: PreparedTool[] = [
    guide,
    ...[...routes.values()].map(
      ({ tool, loadHandler }): PreparedTool => ({
        name: tool.name,
        config: {
          title: tool.title,
          description: tool.description,
          inputSchema: advertisedSchema((target) => toolInputSchema(tool, target)),
          annotations: tool.annotations,
          ...uiMeta(tool.name),
        },
        call: isConfirmable(tool.name)
          ? confirmableCall(tool.name, { tool, loadHandler }, routes)
          : (args, incoming, baseUrl) => callRoute(tool, loadHandler, args, incoming, baseUrl),
      }),
    ),
    {
      name: CONFIRM_TOOL.name,
      config: {
        title: CONFIRM_TOOL.title,
        description: CONFIRM_TOOL.description,
        inputSchema: advertisedSchema(() => CONFIRM_TOOL.inputSchema),
        annotations: CONFIRM_TOOL.annotations,
        _meta: CONFIRM_TOOL._meta,
      },
      call: (args, incoming, baseUrl) => confirmAction(routes, args, incoming, baseUrl),
    },
  ];
  return prepared;
}

/** Where ChatGPT puts the person's coarse location on every tools/call (its Apps SDK reference). */
export const HOST_LOCATION_META_KEY = 'openai/userLocation';

/**
 * The exchange's request with this call's host hints: the coarse location in its `_meta`,
 * parsed and bounded (anything odd is dropped), so only the MCP path ever reads one.
 */
function withHostHints(incoming: IncomingCall | undefined, meta: unknown): IncomingCall | undefined {
  const hint = (meta as Record<string, unknown> | undefined)?.[HOST_LOCATION_META_KEY];
  const hostLocation = incoming && hint !== undefined ? hostLocationFrom(hint) : undefined;
  return hostLocation ? { ...incoming!, hostLocation } : incoming;
}

/**
 * Puts the prepared tools and the views on this exchange's server, each call carrying the
 * exchange's MCP request. An exchange that calls one tool (`calls`) gets that tool alone: a
 * stateless server answers that one message and is gone, and registering all 43 on it cost
 * every call.
 */
export function registerTools(
  server: McpServer,
  prepared: readonly PreparedTool[],
  incoming: IncomingCall | undefined,
  baseUrl: string,
  calls?: string,
): void {
  const only = calls === undefined ? undefined : prepared.find((tool) => tool.name === calls);
  for (const tool of only ? [only] : prepared)
    server.registerTool(tool.name, tool.config, async (args, ctx) =>
      tool.call(args, withHostHints(incoming, ctx.mcpReq._meta), baseUrl, () =>
        callerCapabilities(ctx.mcpReq.envelope, server.server.getClientCapabilities()),
      ),
    );
  if (!only) registerViews(server, baseUrl);
}

/** Each view as a ui:// resource (resources/list, resources/read), with the CSP it needs. */
export function registerViews(server: McpServer, baseUrl: string): void {
  const csp = viewCsp(baseUrl, Boolean(config().blobReadWriteToken));
  for (const view of VIEWS) {
    const ui = { csp, prefersBorder: true };
    server.registerResource(
      view.name,
      view.uri,
      { title: view.title, mimeType: VIEW_MIME_TYPE, _meta: { ui } },
      async () => {
        const html = viewHtml(view);
        if (!html) throw new Error(`The ${view.name} view is not built: run npm run build`);
        return { contents: [{ uri: view.uri, mimeType: VIEW_MIME_TYPE, text: html, _meta: { ui } }] };
      },
    );
  }
}

export const MCP_VERSION = API_VERSION;

// The shape of one endpoint declaration. The table built from these drives the
// route handlers, OpenAPI, the endpoint index and the MCP tools.
import type { z } from 'zod';
import type { ErrorCode } from '../core/errors';
import type { RateLimitName } from '../limits/rate-limits';

export const SCOPES = [
  'profile:read',
  'profile:write',
  'photo:write',
  'buddy:read',
  'buddy:write',
  'message:read',
  'message:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What the MCP tool does to the world, as ToolAnnotations hints (MCP schema 2025-11-25, the same
 * in 2025-06-18). All four are required: hosts and directories reject a tool without them, and a
 * hint left to its default (destructive and open-world) would claim more than most tools do.
 */
export interface ToolHints {
  /** Changes nothing. destructiveHint and idempotentHint still say what a repeat would do. */
  readOnlyHint: boolean;
  /** May overwrite or end something (a photo, a plan, a token) rather than only add. */
  destructiveHint: boolean;
  /** A second call with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** Reaches beyond this service's own data: another person, an email, an upstream. */
  openWorldHint: boolean;
}

export interface EndpointSpec {
  /** Stable operation id; also the MCP tool name where one exists. */
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /api/v1/users/{slug}/profile.json */
  path: string;
  /** 'none' for public endpoints, otherwise the scope the bearer token must carry. */
  auth: 'none' | Scope;
  /**
   * A person's name for it, a few words ("Find buddies"): the MCP tool's `title`, which hosts and
   * app directories show people (tools/list and the manifest). Required of the agents' table.
   */
  title?: string;
  summary: string;
  description?: string;
  /**
   * For the MCP tool: the one rule a model gets wrong without it, in a sentence or two.
   * Tool descriptions are summary + toolHint (tools/list sits in every conversation's
   * context); the long `description` serves OpenAPI, /docs and the guides.
   */
  toolHint?: string;
  tags: readonly string[];
  /** The MCP tool's annotations; every endpoint of the agents' table declares all four. */
  hints?: ToolHints;
  /**
   * Left out of MCP, with the reason; every other endpoint of the agents' table is a tool.
   * Read through isMcpTool below: OpenAPI and tools/list never carry it.
   */
  mcp?: { exposed: false; why: string };
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be absent or empty (it is then parsed as {}). */
  bodyOptional?: boolean;
  /** Largest accepted request body in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  response: z.ZodType;
  /** Success status (default 200). */
  status?: number;
  /**
   * A second success status with the same body, and when it is given (a create that
   * finds the thing already there answers 200 instead of 201).
   */
  alsoOk?: { status: number; when: string };
  /**
   * A per-user (after authentication) or per-client-address (before anything else) rate
   * limit the wrapper counts each call against; its rule comes from the configuration.
   */
  rateLimit?: { name: RateLimitName; by: 'user' | 'client' };
  /**
   * The person's own (sharing, check-ins, "Did you meet?", the calendar feed): only their
   * web session may call it, and a bearer token is refused with 403 person_only before
   * anything else is read. `hint` names the page where the person does it.
   */
  personOnly?: { hint: string };
  /** Error codes this endpoint documents besides the generic ones. */
  errors?: readonly ErrorCode[];
  /** Response examples for the docs; must validate against `response`. */
  example?: unknown;
  requestExample?: unknown;
}

/** Every endpoint is a tool unless its contract entry says why not (`mcp: { exposed: false, why }`). */
export const isMcpTool = (spec: Pick<EndpointSpec, 'mcp'>): boolean => spec.mcp?.exposed !== false;

/** An endpoint of the agents' API (OpenAPI, the index, MCP): its tool hints and title are required. */
export type AgentEndpointSpec = EndpointSpec & { hints: ToolHints; title: string };

export function defineEndpoint<const S extends EndpointSpec>(spec: S): S {
  return spec;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

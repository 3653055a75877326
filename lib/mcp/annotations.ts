// MCP tool annotations, derived from the HTTP method and refined by what SPEC.md says
// each endpoint does. Keyed by "METHOD path" (fixed by the SPEC), not by tool name, so
// endpoints added on other branches get truthful hints without touching this file.
import type { EndpointSpec, HttpMethod } from '../contract/define';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}
type Hints = Omit<ToolAnnotations, 'title'>;

/**
 * From the method alone. GET reads; PUT/PATCH/DELETE overwrite or remove (so may
 * destroy what was there) and repeat to the same state; POST creates, once per call.
 */
const BY_METHOD: Record<HttpMethod, Hints> = {
  GET: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  PUT: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  PATCH: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  DELETE: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  POST: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** Endpoints whose effect differs from their method's default, with the reason. */
const REFINEMENTS: Array<{ method: HttpMethod; path: RegExp; hints: Partial<Hints>; why: string }> = [
  {
    method: 'POST',
    path: /^\/api\/v1\/register\.json$/,
    hints: { openWorldHint: true },
    why: 'emails the person a sign-in link',
  },
  {
    method: 'GET',
    path: /^\/api\/v1\/events\.json$/,
    hints: { openWorldHint: true },
    why: 'proxies an upstream events directory',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/me\/photo\.json$/,
    hints: { destructiveHint: true, openWorldHint: true },
    why: 'replaces the current photo; an image-safety service checks it',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/me\/complete\.json$/,
    hints: { idempotentHint: true },
    why: 'confirming a complete profile twice changes nothing',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/users\/\{[^}]+\}\/buddy_request\.json$/,
    hints: { openWorldHint: true },
    why: 'reaches another person',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/buddy_requests\/\{[^}]+\}\/accept\.json$/,
    hints: { openWorldHint: true },
    why: 'opens a chat with another person and may message them',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/buddy_requests\/\{[^}]+\}\/decline\.json$/,
    hints: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    why: "answers another person's request for good",
  },
  {
    method: 'GET',
    path: /^\/api\/v1\/chats\/\{[^}]+\}\/messages\.json$/,
    hints: { readOnlyHint: false },
    why: 'mark_read=true moves the read marker',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/chats\/\{[^}]+\}\/messages\.json$/,
    hints: { openWorldHint: true },
    why: 'messages another person (push notification)',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/chats\/\{[^}]+\}\/read\.json$/,
    hints: { idempotentHint: true },
    why: 'SPEC: idempotent; only the caller’s read marker',
  },
  {
    method: 'POST',
    path: /block/,
    hints: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    why: 'cuts off another person',
  },
  { method: 'DELETE', path: /block/, hints: { openWorldHint: true }, why: 'lets another person reach you again' },
  {
    method: 'POST',
    path: /^\/api\/v1\/chats\/\{[^}]+\}\/plans\.json$/,
    hints: { openWorldHint: true },
    why: 'proposes a meeting to another person (push notification)',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/plans\/\{[^}]+\}\/accept\.json$/,
    hints: { idempotentHint: true, openWorldHint: true },
    why: 'commits the person to meet someone; accepting twice answers the same confirmed plan',
  },
  {
    method: 'POST',
    path: /^\/api\/v1\/plans\/\{[^}]+\}\/(decline|cancel)\.json$/,
    hints: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    why: 'ends a plan for both people, for good',
  },
];

export function annotationsFor(spec: Pick<EndpointSpec, 'method' | 'path' | 'summary'>): ToolAnnotations {
  const hints: Hints = { ...BY_METHOD[spec.method] };
  for (const rule of REFINEMENTS) {
    if (rule.method === spec.method && rule.path.test(spec.path)) Object.assign(hints, rule.hints);
  }
  return { title: spec.summary, ...hints };
}

/** The MCP defaults (2025-06-18 schema: ToolAnnotations): a hint left out means this. */
const MCP_DEFAULTS: Hints = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * The same hints as tools/list sends them: only those that differ from the defaults
 * (a hint left out means its default, so nothing untrue is implied), and no title (the
 * tool has its own). destructiveHint and idempotentHint mean nothing for a read-only tool.
 */
export function advertisedAnnotations(annotations: ToolAnnotations): Partial<Hints> {
  const out: Partial<Hints> = {};
  for (const key of Object.keys(MCP_DEFAULTS) as (keyof Hints)[]) {
    if (annotations.readOnlyHint && (key === 'destructiveHint' || key === 'idempotentHint')) continue;
    if (annotations[key] !== MCP_DEFAULTS[key]) out[key] = annotations[key];
  }
  return out;
}

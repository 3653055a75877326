// A tools/call naming no tool gets a JSON-RPC error that names the closest tools, so
// a model that misremembers a name (get_messages, send_request) corrects itself in one
// step. MCP 2025-06-18 (server/tools, "Error Handling"): unknown tools are a protocol
// error, -32602 Invalid params.
import { editDistance } from '../activities/similarity';
import { echoed } from '../http/echo';

export const INVALID_PARAMS = -32602;
const MAX_COMPARED_CHARS = 64;

/** Up to three names closest to `wanted`: edit distance, with shared words counting as closeness. */
export function closestToolNames(wanted: string, names: readonly string[], limit = 3): string[] {
  // Tool names are short: the first characters of a longer one are all a suggestion needs,
  // and the work stays the same whatever an unauthenticated caller sends.
  const norm = wanted
    .slice(0, MAX_COMPARED_CHARS)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
  const words = new Set(norm.split('_').filter(Boolean));
  return names
    .map((name) => {
      const shared = name
        .split('_')
        .filter((w) => words.has(w) || words.has(`${w}s`) || words.has(w.replace(/s$/, ''))).length;
      return { name, score: editDistance(norm, name) - 3 * shared };
    })
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((s) => s.name);
}

interface JsonRpcCall {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown };
}

/** The JSON-RPC error answer for a tools/call of an unknown tool, or null for anything else. */
export function unknownToolAnswer(parsed: unknown, names: readonly string[]): Response | null {
  const message = parsed as JsonRpcCall | undefined;
  if (!message || typeof message !== 'object' || message.method !== 'tools/call') return null;
  const name = message.params?.name;
  if (typeof name !== 'string' || names.includes(name)) return null;
  const closest = closestToolNames(name, names);
  const body = {
    jsonrpc: '2.0',
    id: message.id ?? null,
    error: {
      code: INVALID_PARAMS,
      message: `Unknown tool: ${echoed(name)}. Did you mean ${closest.join(', ')}? tools/list names every tool.`,
      data: { closest },
    },
  };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

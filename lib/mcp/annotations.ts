// MCP tool annotations (ToolAnnotations, MCP schema 2025-11-25): each contract entry declares
// its four hints (`hints` in lib/contract), and tools/list sends all four for every tool,
// since a hint left out means its default (destructive, open-world), which claims too much.
import type { AgentEndpointSpec, ToolHints } from '../contract/define';

export type ToolAnnotations = ToolHints;

export const HINT_NAMES = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The hints as tools/list sends them: all four, in one order (no title: the tool has its own name). */
export function annotationsFor(spec: Pick<AgentEndpointSpec, 'hints'>): ToolAnnotations {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = spec.hints;
  return { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
}

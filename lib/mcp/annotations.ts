// MCP tool annotations (ToolAnnotations, MCP schema 2025-11-25): each contract entry declares its
// four hints (`hints` in lib/contract). tools/list sends readOnlyHint, destructiveHint and
// openWorldHint on every tool (a hint left out means its default, destructive and open-world, and
// the app directories ask for all three), and idempotentHint on the tools that write: the schema
// calls it "meaningful only when readOnlyHint == false", and leaving it off the 20 read-only tools
// pays for their titles in the tools/list budget (issue 47).
import type { AgentEndpointSpec, ToolHints } from '../contract/define';

export type ToolAnnotations = Omit<ToolHints, 'idempotentHint'> & { idempotentHint?: boolean };

export const HINT_NAMES = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The hints a tool of these declared hints advertises, in one order. */
export function advertisedHintNames(hints: Pick<ToolHints, 'readOnlyHint'>): readonly (typeof HINT_NAMES)[number][] {
  return hints.readOnlyHint ? HINT_NAMES.filter((name) => name !== 'idempotentHint') : HINT_NAMES;
}

/** The hints as tools/list and the manifest send them (the title is the tool's own, beside them). */
export function annotationsFor(spec: Pick<AgentEndpointSpec, 'hints'>): ToolAnnotations {
  return Object.fromEntries(advertisedHintNames(spec.hints).map((name) => [name, spec.hints[name]])) as ToolAnnotations;
}

// tools/list sits in the context of every conversation that has the connector on:
// its size is a budget (issue 16), held here on the list the server advertises.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../contract';
import { advertisedHintNames } from './annotations';
import { advertisedTools, toolListBytes } from './server';
import { guideResult } from './guide-tool';
import { isMcpTool } from '../contract/define';
import { closestToolNames, unknownToolAnswer } from './unknown-tool';

// Raised from 20 KB (and 5,000 tokens) by issue 29, which adds the plan tools; since issue 32 §3 every
// tool carries all four annotation hints (3.6 KB); to 27,000 by issue 45, which adds the meetup tools.
const MAX_BYTES = 27_000;
// Tokens in the same proportion (4 bytes a token): 6,000 → 6,750.
const MAX_TOKENS = 6_750;

describe('tools/list', () => {
  const tools = advertisedTools(endpoints);
  const json = JSON.stringify({ tools });

  it(`stays under ${MAX_BYTES} bytes and ${MAX_TOKENS} tokens (o200k_base) with every capability`, () => {
    expect(Buffer.byteLength(json)).toBeLessThan(MAX_BYTES);
    expect(encode(json).length).toBeLessThan(MAX_TOKENS);
    expect(tools.map((t) => t.name)).toContain('get_guide');
    // + get_guide and confirm_action (app-only, issue 32 §2)
    expect(tools).toHaveLength(endpoints.filter(isMcpTool).length + 2);
  });

  // Issue 43 §6: AGENTS.md said "about 18 KB" while the list had grown to 24 KB; it states the measured size.
  it('is the size AGENTS.md and get_guide state', () => {
    expect(toolListBytes()).toBe(Buffer.byteLength(json));
    const stated = `(${Math.round(Buffer.byteLength(json) / 1000)} KB for every tool)`;
    const guide = guideResult({ name: 'agents' }, { toolListBytes: toolListBytes() });
    expect(guide.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(stated) });
  });

  // Issue 32 §3: directories reject a tool without readOnlyHint, destructiveHint and openWorldHint,
  // and a hint left out means its default (destructive, open-world), which would claim more than most
  // tools do. idempotentHint is sent where the MCP schema gives it a meaning: on tools that write.
  it('gives every tool its annotation hints, as booleans the contract declares', () => {
    for (const tool of tools) {
      const names = advertisedHintNames(tool.annotations);
      expect(Object.keys(tool.annotations), tool.name).toEqual([...names]);
      expect(names.includes('idempotentHint'), tool.name).toBe(!tool.annotations.readOnlyHint);
      for (const name of names) expect(typeof tool.annotations[name], `${tool.name} ${name}`).toBe('boolean');
      const spec = endpoints.find((e) => e.id === tool.name);
      if (spec) expect(spec.hints, tool.name).toMatchObject(tool.annotations);
    }
  });

  // Issue 47: the app directories show people a tool's title, and reject a tool without one.
  it('gives every tool a title of its own, from its contract entry', () => {
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^[A-Z][\w ,'-]{2,29}$/);
      const spec = endpoints.find((e) => e.id === tool.name);
      if (spec) expect(tool.title, tool.name).toBe(spec.title);
    }
    expect(new Set(tools.map((t) => t.title)).size).toBe(tools.length);
    expect(tools.every((t) => t.name.length <= 64)).toBe(true);
  });
});

describe('closestToolNames', () => {
  const names = advertisedTools(endpoints).map((t) => t.name);
  it.each([
    ['get_messages', 'list_messages'],
    ['send_request', 'send_buddy_request'],
    ['inbox', 'get_inbox'],
    ['update_profile', 'update_my_profile'],
    ['accept_request', 'accept_buddy_request'],
    ['list_event', 'list_events'],
    ['guide', 'get_guide'],
  ])('%s → %s first', (wrong, right) => {
    expect(closestToolNames(wrong, names)[0]).toBe(right);
  });
});

describe('unknownToolAnswer for a huge name (issue 28: 4 MB stalled the server for 34 s)', () => {
  const names = advertisedTools(endpoints).map((t) => t.name);
  it('answers at once and quotes at most 80 characters of the name', async () => {
    const name = `get_inbox${'x'.repeat(4_000_000)}`;
    const message = JSON.parse(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
    );
    const started = performance.now();
    const answer = unknownToolAnswer(message, names);
    expect(performance.now() - started).toBeLessThan(1_000);
    const text = await answer!.text();
    expect(text.length).toBeLessThan(2_000);
    const body = JSON.parse(text) as { error: { message: string; data: { closest: string[] } } };
    expect(body.error.message).toContain(`Unknown tool: get_inbox${'x'.repeat(71)}…. Did you mean`);
    expect(body.error.data.closest[0]).toBe('get_inbox');
  });
});

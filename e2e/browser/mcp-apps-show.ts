// Shows an MCP Apps view in the test host (mcp-apps-host.ts) for the browser specs of the
// views: an MCP client for a person, and showView, which reads the view through
// resources/read, loads it with a real tool result and answers its tool calls from the
// running server. scripts/readme-screenshots.ts uses it too, on its own stack (`url`).
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from '@playwright/test';
import * as esbuild from 'esbuild';
import { baseUrl, bearer, freshIp, type Registered } from './support';

export type ToolResult = Record<string, unknown> & { content: Array<{ type: string; text?: string }> };

export async function mcpClient(user: Pick<Registered, 'token'>, url = baseUrl()): Promise<Client> {
  const client = new Client({ name: 'mcp-apps-host', version: '1.0.0' });
  const headers = { ...bearer(user), 'x-forwarded-for': freshIp() };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers } }));
  return client;
}

let hostScript: string | undefined;
async function hostPage(): Promise<string> {
  hostScript ??= (
    await esbuild.build({
      entryPoints: [path.join(import.meta.dirname, 'mcp-apps-host.ts')],
      bundle: true,
      format: 'iife',
      write: false,
      logLevel: 'warning',
    })
  ).outputFiles[0]!.text;
  return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width,initial-scale=1"><title>Test host</title></head><body><script>${hostScript.replaceAll('</script', '<\\/script')}</script></body></html>`;
}

/** Loads `uri` for `client`'s person with `result`; returns the tool calls the view makes, as they reach the server. */
export async function showView(
  page: Page,
  client: Client,
  uri: string,
  input: Record<string, unknown>,
  result: ToolResult,
  theme: 'light' | 'dark',
): Promise<Array<{ name: string; arguments: Record<string, unknown> }>> {
  const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
  const { contents } = await client.readResource({ uri });
  const view = contents[0] as unknown as { text: string; _meta: { ui: { csp: { resourceDomains: string[] } } } };
  await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
    calls.push({ name: params.name, arguments: params.arguments ?? {} });
    return client.callTool({ name: params.name, arguments: params.arguments ?? {} });
  });
  await page.setContent(await hostPage());
  await page.evaluate((options) => window.startView(options), {
    html: view.text,
    imageOrigins: view._meta.ui.csp.resourceDomains,
    input,
    result,
    theme,
  });
  return calls;
}

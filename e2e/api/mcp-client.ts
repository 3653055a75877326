// The official MCP SDK client (v1) on this server's /api/mcp, each from an address of its own
// (registrations are limited per address), for the API tests that speak MCP as a host would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { baseUrl, freshIp } from './client';

const open: Client[] = [];

/** A connected client, with the bearer token when given; closeMcpClients() closes them all. */
export async function connectMcp(name: string, token?: string): Promise<Client> {
  const headers: Record<string, string> = {
    'x-forwarded-for': freshIp(),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } }),
  );
  open.push(client);
  return client;
}

/** For afterAll: closes every client this file connected. */
export async function closeMcpClients(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
}

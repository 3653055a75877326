// Issue 28 §1: one unauthenticated request stopped the whole server. A tools/call naming a
// 4,000,000-character tool held every request for 34 s (an edit distance against every tool
// name, and the name echoed whole), and /api/mcp read bodies of any size (four 250 MB POSTs:
// 0.5 → 2.2 GB). Each attack runs here against a server of its own, so its health and
// memory are this file's alone, while /api/health is timed.
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MCP_MAX_BODY_BYTES } from '@/lib/mcp/body-limit';
import { startServerProcess, type ServerProcess } from '../support/stack';
import { freshIp } from './client';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess({
    databaseUrl: inject('databaseUrl'),
    dataDir: inject('dataDir'),
    args: ['--role=web'],
    logName: 'server-dos.log',
  });
}, 120_000);
afterAll(async () => server?.stop());

const MB = 1024 * 1024;
/** A healthy answer under load from the other requests below: the attack took 33.8 s. */
const HEALTH_BUDGET_MS = 2_000;

function rssBytes(): number {
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Times GET /api/health over and over until `attack` settles; returns every timing. */
async function healthTimingsDuring(attack: Promise<unknown>): Promise<number[]> {
  let settled = false;
  const done = attack.finally(() => {
    settled = true;
  });
  const timings: number[] = [];
  while (!settled || timings.length < 3) {
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/api/health`, { headers: { 'x-forwarded-for': freshIp() } });
    await res.arrayBuffer();
    timings.push(performance.now() - started);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await done;
  return timings;
}

const toolsCall = (name: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });

async function postMcp(body: string) {
  const res = await fetch(`${server.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-forwarded-for': freshIp(),
    },
    body,
  });
  return { status: res.status, text: await res.text() };
}

interface Upload {
  status: number;
  /** Bytes written before the answer came. */
  sent: number;
  text: string;
}

/**
 * POSTs up to `total` bytes of JSON-ish filler in 1 MB writes (chunked, or with a declared
 * Content-Length of `declared`), stopping as soon as the server answers.
 */
function upload(path: string, total: number, declared?: number): Promise<Upload> {
  const url = new URL(path, server.baseUrl);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-forwarded-for': freshIp(),
        ...(declared ? { 'content-length': String(declared) } : { 'transfer-encoding': 'chunked' }),
      },
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, sent, text: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      });
    });
    // The server may close the socket after answering: what counts is the answer.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const filler = Buffer.alloc(MB, 'x');
    const writeMore = () => {
      while (!answered && sent < total) {
        sent += filler.length;
        if (!req.write(filler)) return void req.once('drain', writeMore);
      }
      if (!answered && !declared) req.end();
    };
    req.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"');
    writeMore();
  });
}

describe('a tools/call with a huge tool name (no token)', () => {
  it('is answered at once with a bounded error, and /api/health stays fast while six run', async () => {
    const name = `get_inbox${'x'.repeat(4_000_000)}`;
    const attacks = Promise.all(Array.from({ length: 6 }, () => postMcp(toolsCall(name))));
    const timings = await healthTimingsDuring(attacks);
    expect(Math.max(...timings), `health timings ${timings.map(Math.round).join(', ')} ms`).toBeLessThan(
      HEALTH_BUDGET_MS,
    );
    for (const answer of await attacks) {
      expect(answer.status).toBe(200);
      // The name is quoted shortened, never echoed whole.
      expect(answer.text.length).toBeLessThan(2_000);
      const body = JSON.parse(answer.text) as { error: { code: number; message: string; data: { closest: string[] } } };
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(/^Unknown tool: get_inboxx+…\. Did you mean/);
      expect(body.error.data.closest).toContain('get_inbox');
    }
  }, 60_000);

  it('a name in a body over the MCP limit gets the 413 envelope', async () => {
    const answer = await postMcp(toolsCall('x'.repeat(MCP_MAX_BODY_BYTES)));
    expect(answer.status).toBe(413);
    const body = JSON.parse(answer.text) as { error: { code: string; message: string; hint: string } };
    expect(body.error.code).toBe('payload_too_large');
    expect(body.error.message).toContain(String(MCP_MAX_BODY_BYTES));
    expect(body.error.hint).toEqual(expect.any(String));
  }, 60_000);
});

describe('huge bodies to /api/mcp are refused while they stream in, never buffered', () => {
  it('a declared 250 MB body gets 413 after the first megabyte, four at once', async () => {
    const uploads = Promise.all(Array.from({ length: 4 }, () => upload('/api/mcp', 250 * MB, 250 * MB)));
    const timings = await healthTimingsDuring(uploads);
    for (const answer of await uploads) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text).error.code).toBe('payload_too_large');
      // Answered before the body: the server never waited for it.
      expect(answer.sent).toBeLessThan(32 * MB);
    }
    expect(Math.max(...timings)).toBeLessThan(HEALTH_BUDGET_MS);
  }, 60_000);

  it('a chunked body (no Content-Length) is cut at the limit: four 50 MB uploads leave memory as it was', async () => {
    const before = rssBytes();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes());
    }, 50);
    const uploads = Promise.all(Array.from({ length: 4 }, () => upload('/api/mcp', 50 * MB)));
    const timings = await healthTimingsDuring(uploads);
    clearInterval(sampler);
    for (const answer of await uploads) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text).error.code).toBe('payload_too_large');
      expect(answer.sent).toBeLessThan(50 * MB);
    }
    // At most the limit per upload is ever held (and freed); 4 × 50 MB buffered would be 200 MB and more.
    expect(peak - before, `RSS ${Math.round(before / MB)} → peak ${Math.round(peak / MB)} MB`).toBeLessThan(
      4 * (MCP_MAX_BODY_BYTES + 16 * MB),
    );
    expect(Math.max(...timings)).toBeLessThan(HEALTH_BUDGET_MS);
  }, 90_000);
});

describe('every other /api endpoint refuses a declared oversize body before authentication', () => {
  it.each(['/api/v1/register.json', '/api/v1/me/photo.json'])('%s', async (path) => {
    const answer = await upload(path, 8 * MB, 100 * MB);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error.code).toBe('payload_too_large');
    expect(answer.sent).toBeLessThan(32 * MB);
  });
});

// `npx tsx scripts/measure-tools.ts`: the size of the MCP tools/list answer, in bytes and
// in tokens (gpt-tokenizer, o200k_base: the encoding of current OpenAI models), per tool
// and per part. It builds each tool entry as the MCP server advertises it; the API test
// e2e/api/mcp-tools.test.ts measures the real answer through the SDK client the same way.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { endpoints } from '../lib/contract';
import { advertisedTools } from '../lib/mcp/server';

const tools = advertisedTools(endpoints);
const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? ''));
const rows = tools
  .map((t) => ({
    tool: t.name,
    bytes: size(t),
    description: size(t.description),
    input: size(t.inputSchema),
    annotations: size(t.annotations),
  }))
  .sort((a, b) => b.bytes - a.bytes);
const list = JSON.stringify({ tools });
console.table(rows);
const sum = (key: 'description' | 'input' | 'annotations') => rows.reduce((n, r) => n + r[key], 0);
console.log(
  JSON.stringify({
    tools: tools.length,
    bytes: Buffer.byteLength(list),
    tokens: encode(list).length,
    descriptions: sum('description'),
    input_schemas: sum('input'),
    annotations: sum('annotations'),
  }),
);

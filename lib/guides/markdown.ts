// Small Markdown builders and contract-derived tables shared by the guides.
import type { z } from 'zod';
import { isMcpTool, type EndpointSpec, type HttpMethod } from '../contract/define';
import { describeLimits, fieldRows, toJsonSchema, type JsonSchema } from '../docs/json-schema';
import { ERROR_ADVICE, type ErrorCode } from '../core/errors';
import { ERROR_STATUS } from '../http/error-response';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const code = (text: string) => `\`${text}\``;

/** The field table of a request body: name, type, required, limits and notes. */
export function fieldTable(schema: z.ZodType): string {
  return table(
    ['Field', 'Type', 'Required', 'Limits and notes'],
    fieldRows(schema).map((row) => [code(row.name), row.type, row.required ? 'yes' : 'no', row.notes]),
  );
}

/** `METHOD path` plus the MCP tool that does the same, when the endpoint is in the contract. */
export function endpointRef(endpoints: readonly EndpointSpec[], method: HttpMethod, path: string): string {
  const spec = endpoints.find((e) => e.method === method && e.path === path);
  const tool = spec && isMcpTool(spec) ? ` (MCP tool ${code(spec.id)})` : '';
  return `${code(`${method} ${path}`)}${tool}`;
}

/** Every endpoint of the contract: method, path, auth and what it does. */
export function endpointTable(endpoints: readonly EndpointSpec[], baseUrl: string): string {
  return table(
    ['Method', 'Path', 'Auth', 'MCP tool', 'What it does'],
    endpoints.map((e) => [
      e.method,
      `[${e.path}](${baseUrl}${e.path})`,
      e.auth === 'none' ? 'none' : `bearer (${e.auth})`,
      isMcpTool(e) ? code(e.id) : '–',
      e.summary,
    ]),
  );
}

/**
 * Every length, count and range limit of every request field in the contract, one row
 * per field and limit, naming the endpoints it applies to.
 */
export function fieldLimitRows(endpoints: readonly EndpointSpec[]): string[][] {
  const byField = new Map<string, Set<string>>();
  for (const spec of endpoints) {
    for (const schema of [spec.body, spec.query]) {
      if (!schema) continue;
      const json = toJsonSchema(schema, 'input', 'draft-2020-12');
      for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
        const limit = describeLimits(property);
        if (!limit) continue;
        const key = `${name}\u0000${limit}`;
        byField.set(key, (byField.get(key) ?? new Set()).add(`${spec.method} ${spec.path}`));
      }
    }
  }
  return [...byField]
    .map(([key, where]) => {
      const [name, limit] = key.split('\u0000') as [string, string];
      return [code(name), limit, [...where].map(code).join(', ')];
    })
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Every error code with its HTTP status and what to do about it. */
export function errorTable(codes: readonly ErrorCode[] = Object.keys(ERROR_STATUS) as ErrorCode[]): string {
  return table(
    ['error.code', 'HTTP status', 'What to do'],
    codes.map((c) => [code(c), String(ERROR_STATUS[c]), ERROR_ADVICE[c]]),
  );
}

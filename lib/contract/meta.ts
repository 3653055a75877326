// Discovery endpoints: the endpoint index, signup instructions, the activity catalog.
import { z } from 'zod';
import { defineEndpoint } from './define';
import { API_PATHS } from './paths';

export const getIndex = defineEndpoint({
  id: 'get_index',
  title: 'Endpoint index',
  method: 'GET',
  path: API_PATHS.index,
  auth: 'none',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  mcp: { exposed: false, why: 'lists the HTTP endpoints; an MCP client gets the same from tools/list' },
  tags: ['meta'],
  summary: 'Machine-readable list of every endpoint',
  response: z.object({
    name: z.string(),
    version: z.string(),
    base_url: z.string(),
    docs: z.record(z.string(), z.string()),
    authentication: z.object({
      scheme: z.literal('Bearer'),
      header: z.string(),
      obtain: z.string(),
      scopes: z.array(z.string()),
    }),
    endpoints: z.array(
      z.object({
        id: z.string(),
        method: z.string(),
        path: z.string(),
        url: z.string(),
        auth: z.string().describe("'none' or the scope the bearer token needs"),
        summary: z.string(),
      }),
    ),
  }),
});

export const getRegisterInstructions = defineEndpoint({
  id: 'get_signup_instructions',
  title: 'Signup instructions',
  method: 'GET',
  path: API_PATHS.register,
  auth: 'none',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['accounts'],
  summary: 'Signup instructions and the JSON Schema of the registration body',
  toolHint: 'Read it before register if unsure what to ask the person.',
  response: z.object({
    endpoint: z.string(),
    method: z.literal('POST'),
    instructions: z.array(z.string()),
    required: z.array(z.string()),
    required_for_discover: z.array(z.string()),
    limits: z.record(z.string(), z.number()).describe('Lengths in characters, counts, bytes and calls per hour'),
    schema: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12) of the POST body'),
    example: z.record(z.string(), z.unknown()),
    browser_fallback: z.string(),
  }),
});

export const activitySchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  aliases: z.array(z.string()),
});

export const listActivities = defineEndpoint({
  id: 'list_activities',
  title: 'List activities',
  method: 'GET',
  path: API_PATHS.activities,
  auth: 'none',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['meta'],
  summary: 'Canonical activity ids, for profiles and buddy requests',
  response: z.object({ activities: z.array(activitySchema), total: z.number().int() }),
});

export const getHealth = defineEndpoint({
  id: 'get_health',
  title: 'Health check',
  method: 'GET',
  path: API_PATHS.health,
  auth: 'none',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  mcp: { exposed: false, why: 'an operator liveness probe, not something an agent does for a person' },
  tags: ['meta'],
  summary: 'Liveness and database check',
  response: z.object({ ok: z.boolean(), db: z.enum(['up', 'down']) }),
  errors: ['service_unavailable'],
});

export const metaEndpoints = [getIndex, getRegisterInstructions, listActivities, getHealth] as const;

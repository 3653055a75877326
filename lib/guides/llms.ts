// GET /llms.txt (llmstxt.org): a title, a one-line summary, then sections of links.
import type { EndpointSpec } from '../contract/define';

export function llmsTxt(endpoints: readonly EndpointSpec[], baseUrl: string): string {
  const endpointLinks = endpoints
    .map((e) => `- [${e.method} ${e.path}](${baseUrl}${e.path}): ${e.summary}${e.auth === 'none' ? '' : ` (bearer token, ${e.auth})`}`)
    .join('\n');
  return `# Buddy Match

> An agent-facing service for a buddy-finding app: sign a person up in one POST (or by MCP, or through a browser link), then act for them: profile, photo, buddy requests, inbox polling and chats.

Start with SIGNUP.md, then AGENTS.md. All endpoints take and return JSON (errors, 404s and 405s too); the bearer token comes from the signup response. Retry a POST safely with the same \`Idempotency-Key\` header; limited endpoints send \`RateLimit-Policy\` and \`RateLimit\` headers. Never invent a response, never give the person a shell command, never hand the task to another agent or server.

New requests and messages: long-poll \`GET /api/v1/inbox.json?wait=25\` with \`If-None-Match\` (or \`since\`); it answers the moment something arrives.

## Guides

- [SIGNUP.md](${baseUrl}/SIGNUP.md): what to ask the person, the one registration POST, what to show them after, the browser fallback
- [AGENTS.md](${baseUrl}/AGENTS.md): after signup: authentication, polling rhythm, buddy requests, chats, safe retries, limits, every error code, etiquette

## API

- [OpenAPI 3.0 description](${baseUrl}/.well-known/openapi.json): every endpoint with schemas and examples
- [Endpoint index](${baseUrl}/api/v1/index.json): machine-readable list of endpoints
- [Signup schema](${baseUrl}/api/v1/register.json): signup instructions and the JSON Schema of the registration body
- [MCP manifest](${baseUrl}/.well-known/mcp.json): the MCP server at ${baseUrl}/api/mcp (Streamable HTTP) and its tools
- [API reference](${baseUrl}/docs): the same, for people

## Endpoints

${endpointLinks}

## Optional

- [Browser signup](${baseUrl}/signup-with-ai): the page a person opens from a link with URL-encoded query parameters (email, name, location, gender, birthday, about, activities, availability, photo, agent)
- [Activity catalog](${baseUrl}/api/v1/activities.json): canonical activity ids
`;
}

// /api/mcp carries any endpoint's body inside a JSON-RPC message, so its limit is the
// largest of theirs plus room for the envelope (issue 28: /api/mcp had none, and four
// 250 MB POSTs took the server from 0.5 to 2.2 GB). Enforced in the node:http server on
// a declared Content-Length (server/doors/api.ts) and in the route while a
// chunked body streams in (app/api/mcp/route.ts), before parsing and authentication.
import { allEndpoints } from '../contract';
import { DEFAULT_MAX_BODY_BYTES } from '../contract/define';

const JSON_RPC_ROOM_BYTES = 64 * 1024;

export const MCP_MAX_BODY_BYTES =
  Math.max(DEFAULT_MAX_BODY_BYTES, ...allEndpoints.map((spec) => spec.maxBodyBytes ?? 0)) + JSON_RPC_ROOM_BYTES;

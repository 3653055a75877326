// Streamable HTTP asks servers to validate Origin so a web page the person visits
// cannot drive their local or signed-in MCP session (DNS rebinding, CSRF). Agents and
// other non-browser clients send no Origin and pass; a browser may call only from our
// own origin (scheme, host and port must all match PUBLIC_BASE_URL).
import { echoed } from '../http/echo';

export function isAllowedOrigin(origin: string | null, publicBaseUrl: string): boolean {
  if (origin === null || origin === '') return true;
  try {
    return new URL(origin).origin === new URL(publicBaseUrl).origin;
  } catch {
    return false; // "null" (opaque origins) and anything unparsable
  }
}

/** A 403 JSON-RPC error for a foreign Origin, or undefined when the request may proceed. */
export function rejectForeignOrigin(request: Request, publicBaseUrl: string): Response | undefined {
  const origin = request.headers.get('origin');
  if (isAllowedOrigin(origin, publicBaseUrl)) return undefined;
  return new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: `Forbidden: requests from the origin ${echoed(origin ?? '')} are not allowed` },
      id: null,
    }),
    { status: 403, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } },
  );
}

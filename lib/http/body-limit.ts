// Every request body has a byte limit, enforced while it streams in: a declared
// Content-Length over the limit is refused before a byte is read, and a chunked body is
// counted as it arrives and refused the moment it passes the limit, before it is parsed. Contract endpoints take their limit from the
// table (maxBodyBytes, 64 KB by default); /api/mcp's is in lib/mcp/body-limit.ts.
import type { IncomingMessage } from 'node:http';
import { ApiError } from './errors';

export const payloadTooLarge = (limit: number) =>
  new ApiError('payload_too_large', `The request body exceeds ${limit} bytes`);

/** True when a Content-Length header declares more than `limit` bytes. */
export function declaresMoreThan(contentLength: string | null | undefined, limit: number): boolean {
  return Number(contentLength ?? Number.NaN) > limit;
}

/** The whole body, read up to `limit` bytes; past that, payload_too_large and the rest is never read. */
export async function readBodyWithin(request: Request, limit: number): Promise<Buffer> {
  if (declaresMoreThan(request.headers.get('content-length'), limit)) throw payloadTooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw payloadTooLarge(limit);
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * A refused body (405, 413) is read and thrown away, never parsed, so the client gets the answer: a
 * socket closed while the client still sends resets, and the answer is lost (undici
 * reported EPIPE for a 2 MB PUT; RFC 9112 §9.6 on closing connections). Past a bound in
 * bytes or time the socket goes; a body read in full leaves the connection for the next
 * request.
 */
const LINGER_MAX_BYTES = 16 * 1024 * 1024;
const LINGER_MAX_MS = 5_000;

export function discardRefusedBody(req: IncomingMessage): void {
  let seen = 0;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, LINGER_MAX_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LINGER_MAX_BYTES) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

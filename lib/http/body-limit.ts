// Every request body has a byte limit, enforced while it streams in: a declared
// Content-Length over the limit is refused before a byte is read, and a chunked body is
// counted as it arrives and refused the moment it passes the limit, before it is parsed. Contract endpoints take their limit from the
// table (maxBodyBytes, 64 KB by default); /api/mcp's is in lib/mcp/body-limit.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../core/errors';

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
 * The same for a node:http request (the direct door, server/doors/route.ts): past `limit`
 * the reading stops, and the unread rest is the door's to throw away (closeAfterAnswer).
 */
export function readIncomingWithin(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaresMoreThan(req.headers['content-length'], limit)) return Promise.reject(payloadTooLarge(limit));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(payloadTooLarge(limit));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    // The client went away before its body was complete (the route reads it as an abort).
    const onClose = () => {
      stop();
      reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
  });
}

/**
 * An answer given before the request's body was read in full (a 405 or 413 from a front
 * door, a route that refused its body part way): the answer says `Connection: close`, so no
 * client sends another request on this socket, and the rest of the body is read and thrown
 * away, never parsed (RFC 9112 §9.6). Node would end and then destroy the socket as soon as
 * such an answer is written: bytes the client is still sending then meet a reset, which can
 * reach the client before the answer it has not read yet (undici reported EPIPE for a 2 MB
 * PUT). So the server only half-closes, and destroys the socket when the client closes it or
 * past a bound in bytes or time. Call it before the answer's head is written.
 */
const LINGER_MAX_BYTES = 16 * 1024 * 1024;
const LINGER_MAX_MS = 5_000;

export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('connection', 'close');
  const socket = req.socket;
  // Called by Node once the answer is written (for `Connection: close`): the FIN goes, reading goes on.
  socket.destroySoon = function halfClose(this: Socket) {
    if (this.writable) this.end();
  };
  let seen = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, LINGER_MAX_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LINGER_MAX_BYTES) cut();
  });
  req.resume();
}

/** True when the request carries a body (declared or chunked), read or not. */
export function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

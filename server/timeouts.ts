// The node:http server's clocks (server/start.ts). 28,500 sockets that never sent a byte
// were once kept open until the process ran out of file descriptors (issue 28); Node's
// defaults (headers 60 s, request 300 s, checked every 30 s) were too patient for that.
//
// Measured on Node 20: headersTimeout runs from the moment a connection opens (or its
// next request begins), so it also closes a socket that never sends a byte, with a 408;
// requestTimeout covers receiving the request, its body included, and ends once it is
// received: a held long-poll (at most MAX_WAIT_SECONDS, lib/chats/poll.ts) is not cut by it.
import type { ServerOptions } from 'node:http';

export const HTTP_SERVER_TIMEOUTS = {
  /** The request line and headers, from the socket's first moment: a silent socket gets this long. */
  headersTimeout: 10_000,
  /** A whole request, body included: a 5 MB photo upload on a slow phone line fits. */
  requestTimeout: 60_000,
  /** An idle keep-alive socket between two requests (Node's default). */
  keepAliveTimeout: 5_000,
  /** How often the two timeouts above are checked: a silent socket lives at most headersTimeout + this. */
  connectionsCheckingInterval: 1_000,
} satisfies ServerOptions;

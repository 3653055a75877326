// The client address, stamped onto every request by our HTTP server (server/start.ts)
// and read by route handlers, Auth.js callbacks, server components and server actions.
//
// A header alone proves nothing: a client can send x-buddy-client-ip itself, and if the
// app is ever served without our server (`next start`, another wrapper) nothing would
// overwrite it. So the server also stamps a proof: a random value made once per process
// and kept on globalThis (route handlers, the proxy and server actions are separate
// bundles but run in this same process, and globalThis is shared by all of them). A
// stamp without the right proof is never used as an address: such requests all share
// one "unverified" bucket, so every per-address limit gets stricter, never looser, and
// one warning is logged.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { logLine } from '../core/log';

export const CLIENT_IP_HEADER = 'x-buddy-client-ip';
export const CLIENT_IP_PROOF_HEADER = 'x-buddy-client-ip-proof';
/** Both stamps, for code that hands a request on inside this process (MCP tools call route handlers). */
export const CLIENT_IP_HEADERS = [CLIENT_IP_HEADER, CLIENT_IP_PROOF_HEADER] as const;
/** The one bucket every request without a proven stamp is counted in. */
export const UNVERIFIED_CLIENT = 'unverified';

const PROOF = Symbol.for('buddy-match.client-ip-proof');
const WARNED = Symbol.for('buddy-match.client-ip-warned');
type Holder = { [PROOF]?: Buffer; [WARNED]?: boolean };
const holder = globalThis as Holder;

/** Called once by our HTTP server before it serves anything. */
export function installClientIpProof(): void {
  holder[PROOF] ??= randomBytes(32);
}

/** Overwrites whatever the client sent in both headers with our address and proof. */
export function stampClientIp(headers: IncomingHttpHeaders, address: string): void {
  const proof = holder[PROOF];
  if (!proof) throw new Error('installClientIpProof() must run before requests are stamped');
  headers[CLIENT_IP_HEADER] = address;
  if (proofText?.proof !== proof) proofText = { proof, text: proof.toString('base64url') };
  headers[CLIENT_IP_PROOF_HEADER] = proofText.text;
}
/** The proof as the header carries it, encoded once. */
let proofText: { proof: Buffer; text: string } | undefined;

function warnOnce(reason: string): void {
  if (holder[WARNED]) return;
  holder[WARNED] = true;
  logLine({
    level: 'warn',
    event: 'client_ip_unverified',
    reason,
    effect: `requests without a proven client address share one "${UNVERIFIED_CLIENT}" bucket for every per-address limit; serve the app with npm start (server/start.ts)`,
  });
}

function verified(headers: Pick<Headers, 'get'>): string {
  const proof = holder[PROOF];
  if (!proof) {
    warnOnce('this process was not started by server/start.ts, so no request carries a proven client address');
    return UNVERIFIED_CLIENT;
  }
  const address = headers.get(CLIENT_IP_HEADER);
  const sent = Buffer.from(headers.get(CLIENT_IP_PROOF_HEADER) ?? '', 'base64url');
  if (!address || sent.length !== proof.length || !timingSafeEqual(sent, proof)) {
    warnOnce('a request reached the app without the client address stamp of server/start.ts');
    return UNVERIFIED_CLIENT;
  }
  return address;
}

export function clientIp(request: { headers: Pick<Headers, 'get'> }): string {
  return verified(request.headers);
}

/** The same, from the headers a server component or server action sees. */
export function clientIpFromHeaders(headers: Pick<Headers, 'get'>): string {
  return verified(headers);
}

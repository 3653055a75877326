// What register.json and the web signup (/signup) share around their domain call: the
// configured limits and services, the precheck before the body is read, and the
// RateLimit headers on the answer.
import type { Database } from '@/db';
import type { RegisterBody } from '@/lib/contract/accounts';
import type { HostLocation } from '@/lib/profiles/host-location';
import { config } from '@/lib/config';
import { Reply } from '@/lib/http/route';
import { photoServicesFrom } from '@/lib/photos/services';
import { precheckRegistrationLimit, type RegisterContext, registrationLimitHeaders } from '@/lib/accounts/register';

interface RegistrationCall {
  db: Database;
  body: RegisterBody;
  ip: string;
  baseUrl: string;
  normalized: readonly string[];
  /** Only an MCP tool call carries one (the register tool; the web signup never does). */
  hostLocation?: HostLocation;
}

export async function replyToRegistration<T>(
  { db, body, ip, baseUrl, normalized, hostLocation }: RegistrationCall,
  register: (db: Database, body: RegisterBody, ctx: RegisterContext) => Promise<T>,
): Promise<Reply<T>> {
  const cfg = config();
  const registrationLimit = cfg.limits.registrations;
  const registered = await register(db, body, {
    ip,
    baseUrl,
    registrationLimit,
    photoUploadLimit: cfg.rateLimits.photo_upload,
    geocoderEnabled: !!cfg.geocoderUrl,
    photos: photoServicesFrom(cfg),
    normalized,
    requirePersonConsent: cfg.requirePersonConsent,
    hostLocation,
  });
  return new Reply(registered, { headers: await registrationLimitHeaders(db, ip, registrationLimit) });
}

/** An address at its limit is refused before its (up to 7 MB) body is even read. */
export const registrationPrecheck = {
  beforeParsing: ({ db, ip }: { db: Database; ip: string }) =>
    precheckRegistrationLimit(db, ip, config().limits.registrations),
};

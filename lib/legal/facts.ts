// What the privacy page and the terms say that depends on how this instance is set up: the
// contact, the ages, where photos go, which outside services are switched on, and the
// periods (./retention.ts). Read from the configuration, so the pages describe this service
// as it runs, not a default.
import type { Config } from '../config';
import { DISPLACEMENT_MAX_KM, DISPLACEMENT_MIN_KM } from '../discover/public-point';
import { retentionInWords } from './retention';

export type LegalConfig = Pick<
  Config,
  | 'contactEmail'
  | 'publicBaseUrl'
  | 'ages'
  | 'requirePersonConsent'
  | 'mcpRequirePersonConfirm'
  | 'blobReadWriteToken'
  | 'moderationProvider'
  | 'geocoderUrl'
  | 'pushProvider'
  | 'smtpUrl'
  | 'planCheckin'
  | 'limits'
  | 'signinFailureLimits'
  | 'signinLinkLimits'
>;

export function legalFacts(cfg: LegalConfig) {
  return {
    contactEmail: cfg.contactEmail,
    site: new URL(cfg.publicBaseUrl).host,
    minimumAge: cfg.ages.minimumAge,
    teenGapYears: cfg.ages.teenGapYears,
    requirePersonConsent: cfg.requirePersonConsent,
    personTapsInViews: cfg.mcpRequirePersonConfirm === 'ui-hosts',
    photosIn: cfg.blobReadWriteToken ? ('vercel-blob' as const) : ('server-disk' as const),
    photosCheckedByGoogle: cfg.moderationProvider === 'google-vision',
    geocoder: cfg.geocoderUrl ? new URL(cfg.geocoderUrl).host : null,
    appPushThroughExpo: cfg.pushProvider === 'expo',
    mailServer: cfg.smtpUrl !== undefined,
    displacementKm: { min: DISPLACEMENT_MIN_KM, max: DISPLACEMENT_MAX_KM },
    retention: retentionInWords(cfg),
  };
}

export type LegalFacts = ReturnType<typeof legalFacts>;

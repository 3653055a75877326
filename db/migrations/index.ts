// The migration list, imported statically so it works under tsx and in the Next bundle alike.
// Append new migrations here; never edit one that has shipped.
import type { Migration } from 'kysely';
import * as m0001 from './0001_init';
import * as m0002 from './0002_photos';
import * as m0003 from './0003_social';
import * as m0004 from './0004_events';
import * as m0005 from './0005_sessions';
import * as m0006 from './0006_discover';
import * as m0007 from './0007_discover_postings';
import * as m0008 from './0008_rate_limits';
import * as m0009 from './0009_public_location';
import * as m0010 from './0010_account_takeover';
import * as m0011 from './0011_signin_addresses';
import * as m0012 from './0012_photo_keys';
import * as m0013 from './0013_poll_versions';
import * as m0014 from './0014_idempotency_keys';
import * as m0015 from './0015_web_push';
import * as m0016 from './0016_oauth';
import * as m0017 from './0017_oauth_token_hashes';
import * as m0018 from './0018_place_cells';
import * as m0020 from './0020_time_zones';
import * as m0021 from './0021_plans';
import * as m0022 from './0022_poll_cursor';
import * as m0025 from './0025_calendar_feeds';
import * as m0026 from './0026_plan_shares';
import * as m0027 from './0027_plan_reviews';
import * as m0028 from './0028_mail_sends';
import * as m0029 from './0029_account_deletion';
import * as m0030 from './0030_mail_digests';
import * as m0031 from './0031_person_confirmations';
import * as m0033 from './0033_person_consent';
import * as m0036 from './0036_meetups';
import * as m0037 from './0037_discover_fine_cells';
import * as m0038 from './0038_meetup_shares';
import * as m0039 from './0039_review_sandbox';

export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_photos': m0002,
  '0003_social': m0003,
  '0004_events': m0004,
  '0005_sessions': m0005,
  '0006_discover': m0006,
  '0007_discover_postings': m0007,
  '0008_rate_limits': m0008,
  '0009_public_location': m0009,
  '0010_account_takeover': m0010,
  '0011_signin_addresses': m0011,
  '0012_photo_keys': m0012,
  '0013_poll_versions': m0013,
  '0014_idempotency_keys': m0014,
  '0015_web_push': m0015,
  '0016_oauth': m0016,
  '0017_oauth_token_hashes': m0017,
  '0018_place_cells': m0018,
  '0020_time_zones': m0020,
  '0021_plans': m0021,
  '0022_poll_cursor': m0022,
  '0025_calendar_feeds': m0025,
  '0026_plan_shares': m0026,
  '0027_plan_reviews': m0027,
  '0028_mail_sends': m0028,
  '0029_account_deletion': m0029,
  '0030_mail_digests': m0030,
  '0031_person_confirmations': m0031,
  '0033_person_consent': m0033,
  '0036_meetups': m0036,
  '0037_discover_fine_cells': m0037,
  '0038_meetup_shares': m0038,
  '0039_review_sandbox': m0039,
};

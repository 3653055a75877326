// Row types of the tables, kept in step with db/migrations by hand.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type Gender = 'male' | 'female' | 'non_binary' | 'prefer_not_to_say';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  slug: string;
  display_name: string;
  about_me: string | null;
  city: string | null;
  location: string | null;
  home_location: string | null;
  /** City-level label from the gazetteer: what others see, never coordinates. */
  public_location: string | null;
  latitude: number | null;
  longitude: number | null;
  coords_source: 'client' | 'gazetteer' | 'geocoder' | null;
  gender: Gender | null;
  /** YYYY-MM-DD (the DATE parser is disabled so no timezone shifts a birthday). */
  birthday: string | null;
  show_age_by_decade: Generated<boolean>;
  activities: Generated<string[]>;
  availability_text: string | null;
  /** 126 chars of 0/1, day-major (see lib/availability). */
  schedule: string | null;
  /** Public URL of the current photo; counts toward onboarding (cleared when the photo goes). */
  photo_url: string | null;
  /** The current photo (photos.id) and its thumbnail's public URL. */
  photo_id: string | null;
  thumbnail_url: string | null;
  onboarding_complete: Generated<boolean>;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Set when the person signed in through an emailed link (migration 0005). */
  email_verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface AccessTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: Buffer;
  scopes: string[];
  label: string | null;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: Timestamp;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface SigninLinksTable {
  id: Generated<string>;
  user_id: string;
  token_hash: Buffer;
  purpose: 'mobile' | 'email';
  expires_at: Date;
  used_at: Date | null;
  created_at: Timestamp;
}

export interface RegistrationsTable {
  id: Generated<string>;
  ip: string;
  user_id: string | null;
  created_at: Timestamp;
}

export interface AgentActionsTable {
  id: Generated<string>;
  user_id: string;
  action: string;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: Timestamp;
}

export interface ThrottlesTable {
  name: string;
  next_at: Timestamp;
}

/** One occurrence of an event in the built-in directory (see lib/events). */
export interface EventsTable {
  id: Generated<string>;
  source: string;
  uid: string;
  series_uid: string;
  title: string;
  description: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  all_day: Generated<boolean>;
  timezone: string | null;
  /** YYYY-MM-DD: the start's date in the event's own timezone. */
  local_date: string;
  venue_name: string | null;
  venue_address: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  /** cube: ll_to_earth(latitude, longitude), written with an SQL expression; used for nearest-first order. */
  earth_point: ColumnType<string | null, string | null | undefined, string | null>;
  activity_ids: Generated<string[]>;
  categories: Generated<string[]>;
  url: string | null;
  scraped_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  search: ColumnType<string, never, never>;
}

export type PhotoStatus = 'active' | 'replaced' | 'cleared' | 'rejected';
export type PhotoSource = 'upload' | 'register' | 'url';
export type ModerationState = 'pending' | 'kept' | 'removed';

export interface PhotosTable {
  id: Generated<string>;
  user_id: string;
  storage: 'local' | 'vercel-blob';
  image_key: string;
  image_url: string;
  thumbnail_key: string;
  thumbnail_url: string;
  mime_type: string;
  width: number;
  height: number;
  bytes: number;
  thumbnail_width: number;
  thumbnail_height: number;
  original_mime_type: string;
  original_bytes: number;
  original_width: number;
  original_height: number;
  source: PhotoSource;
  status: Generated<PhotoStatus>;
  moderation: Generated<ModerationState>;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: Timestamp;
  retired_at: Date | null;
  blobs_deleted_at: Date | null;
}

export interface PhotoModerationTable {
  /** bigserial (int8 is parsed to a number, see db/index.ts). */
  id: Generated<number>;
  photo_id: string;
  provider: string;
  safety_checked: boolean;
  adult: string | null;
  violence: string | null;
  racy: string | null;
  medical: string | null;
  spoof: string | null;
  face_count: number | null;
  notes: Generated<string[]>;
  action: 'kept' | 'removed';
  checked_at: Timestamp;
}

export type BuddyRequestState = 'pending' | 'accepted' | 'declined' | 'cancelled';

export interface BuddyRequestsTable {
  id: Generated<string>;
  sender_id: string;
  recipient_id: string;
  message: string | null;
  activity_ids: Generated<string[]>;
  state: Generated<BuddyRequestState>;
  chat_id: string | null;
  agent_name: string | null;
  agent_session_id: string | null;
  responder_agent_name: string | null;
  responder_agent_session_id: string | null;
  created_at: Timestamp;
  responded_at: Date | null;
}

export interface ConnectionsTable {
  id: Generated<string>;
  /** The smaller user id of the pair. */
  user_a: string;
  user_b: string;
  created_at: Timestamp;
}

export interface ChatsTable {
  id: Generated<string>;
  connection_id: string;
  last_message_id: number | null;
  last_message_at: Date | null;
  created_at: Timestamp;
}

export interface ChatMembersTable {
  chat_id: string;
  user_id: string;
  other_user_id: string;
  last_read_message_id: Generated<number>;
  last_read_at: Date | null;
  unread_count: Generated<number>;
  created_at: Timestamp;
}

export interface MessagesTable {
  id: Generated<number>;
  chat_id: string;
  sender_id: string;
  text: string;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: Timestamp;
}

export interface ReportsTable {
  id: Generated<string>;
  reporter_id: string;
  reported_id: string;
  reason: string;
  text: string | null;
  chat_id: string | null;
  status: Generated<'open' | 'reviewed' | 'dismissed'>;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: Timestamp;
}

export interface PushTokensTable {
  id: Generated<string>;
  user_id: string;
  token: string;
  platform: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: Buffer;
  expires_at: Date;
  created_at: Timestamp;
}

export interface AuthAttemptsTable {
  id: Generated<string>;
  kind: 'password_failure' | 'link_request';
  /** Lower-cased email, whether or not an account has it. */
  account_key: string;
  ip: string;
  created_at: Timestamp;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface DB {
  agent_actions: AgentActionsTable;
  events: EventsTable;
  users: UsersTable;
  access_tokens: AccessTokensTable;
  signin_links: SigninLinksTable;
  registrations: RegistrationsTable;
  throttles: ThrottlesTable;
  photos: PhotosTable;
  photo_moderation: PhotoModerationTable;
  buddy_requests: BuddyRequestsTable;
  connections: ConnectionsTable;
  chats: ChatsTable;
  chat_members: ChatMembersTable;
  messages: MessagesTable;
  blocks: BlocksTable;
  reports: ReportsTable;
  push_tokens: PushTokensTable;
  sessions: SessionsTable;
  auth_attempts: AuthAttemptsTable;
  app_secrets: AppSecretsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export type EventRow = Selectable<EventsTable>;
export type NewEvent = Insertable<EventsTable>;
export type PhotoRow = Selectable<PhotosTable>;
export type PhotoModerationRow = Selectable<PhotoModerationTable>;
export type BuddyRequestRow = Selectable<BuddyRequestsTable>;
export type ChatRow = Selectable<ChatsTable>;
export type MessageRow = Selectable<MessagesTable>;

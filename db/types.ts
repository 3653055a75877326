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
  photo_url: string | null;
  onboarding_complete: Generated<boolean>;
  /** Last authenticated API call (touched at most once a minute); ranks Discover. */
  last_active_at: Timestamp;
  agent_name: string | null;
  agent_session_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
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

export interface DB {
  agent_actions: AgentActionsTable;
  users: UsersTable;
  access_tokens: AccessTokensTable;
  signin_links: SigninLinksTable;
  registrations: RegistrationsTable;
  buddy_requests: BuddyRequestsTable;
  connections: ConnectionsTable;
  chats: ChatsTable;
  chat_members: ChatMembersTable;
  messages: MessagesTable;
  blocks: BlocksTable;
  reports: ReportsTable;
  push_tokens: PushTokensTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type BuddyRequestRow = Selectable<BuddyRequestsTable>;
export type ChatRow = Selectable<ChatsTable>;
export type MessageRow = Selectable<MessagesTable>;

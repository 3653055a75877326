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
  users: UsersTable;
  access_tokens: AccessTokensTable;
  signin_links: SigninLinksTable;
  registrations: RegistrationsTable;
  sessions: SessionsTable;
  auth_attempts: AuthAttemptsTable;
  app_secrets: AppSecretsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

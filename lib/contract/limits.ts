// The contract's plain constants: limits and enumerations with no dependencies, so the
// web pages can import them without shipping zod, the schemas and the activity catalog
// to the browser. The contract modules re-export them.

export const SOCIAL_LIMITS = {
  requestMessage: 280,
  activityIds: 5,
  firstMessage: 600,
  messageText: 4000,
  messagesPageMax: 200,
  messagesPageDefault: 50,
  reportText: 1000,
  pushToken: 255,
  /** Requests and unread chats shown in one inbox answer; counts cover the rest. */
  inboxItems: 50,
  /** Newest unread messages shown per chat in the inbox. */
  inboxMessagesPerChat: 20,
  /** Default look-back of the inbox's accepted-requests list. */
  inboxAcceptedDays: 7,
  /** A declined sender may not ask the same person again for this long. */
  declineCooldownDays: 30,
} as const;

export const BUDDY_REQUEST_STATES = ['pending', 'accepted', 'declined', 'cancelled'] as const;
export const REPORT_REASONS = [
  'spam',
  'harassment',
  'inappropriate_content',
  'fake_profile',
  'underage',
  'safety_concern',
  'other',
] as const;

export const DISCOVER_LIMITS = {
  radiusKmDefault: 25,
  radiusKmMax: 200,
  limitDefault: 20,
  limitMax: 50,
  activitiesMax: 20,
  availableDefault: 1,
  slotsPerWeek: 126,
  ageMin: 13,
  ageMax: 120,
} as const;

/** Plans (issue 29, section 3): sizes and the rules that refuse a plan. */
export const PLAN_LIMITS = {
  activity: 80,
  placeName: 120,
  placeAddress: 200,
  eventId: 120,
  note: 500,
  cancelReason: 280,
  /** A plan starts at most this many days ahead. */
  maxDaysAhead: 90,
  /** A plan lasts at most this long. */
  maxDurationHours: 24,
  /** ends_at when it is left out: this long after starts_at. */
  defaultDurationHours: 2,
  /** Open (unanswered, not yet started) proposals one chat may hold at once. */
  openProposalsPerChat: 3,
  /** plan_options: how many, and how many days ahead they look (default, most). */
  options: 5,
  optionsDaysDefault: 14,
  optionsDaysMax: 30,
  pageDefault: 20,
  pageMax: 50,
} as const;

export const PLAN_STATUSES = ['proposed', 'confirmed', 'superseded', 'declined', 'cancelled', 'expired'] as const;
export const PLAN_VIEWS = ['to_answer', 'upcoming', 'past'] as const;
/** "Did you meet?": yes, they didn't come, we cancelled. */
export const PLAN_REVIEW_OUTCOMES = ['met', 'no_show', 'cancelled'] as const;

/** Meetups (issue 45): sizes, and the rules of seats, series and search. */
export const MEETUP_LIMITS = {
  placeName: 120,
  placeAddress: 200,
  note: 500,
  cancelReason: 280,
  /** Seats, the host's included. */
  capacityMin: 2,
  capacityMax: 50,
  maxDaysAhead: 90,
  maxDurationHours: 24,
  defaultDurationHours: 2,
  /** A weekly series holds at most this many occurrences, the first included. */
  repeatWeeksMax: 12,
  radiusKmDefault: 25,
  radiusKmMax: 100,
  activitiesMax: 5,
  daysDefault: 30,
  daysMax: 90,
  pageDefault: 20,
  pageMax: 50,
  /** Search reads at most this many of the soonest open meetups per (activity, cell). */
  candidatesPerCell: 50,
  /** A seat freed this close to the start is offered (held for offerHoldMinutes), not given. */
  offerWithinHours: 3,
  offerHoldMinutes: 30,
} as const;

export const MEETUP_VIEWS = ['nearby', 'mine'] as const;
export const MEETUP_JOIN_POLICIES = ['open', 'approval'] as const;
export const MEETUP_STATUSES = ['upcoming', 'under_way', 'over', 'cancelled'] as const;
/** The caller's place in a meetup; `none` when they have none. */
export const MEETUP_ROLES = [
  'host',
  'confirmed',
  'offered',
  'waitlisted',
  'pending',
  'declined',
  'left',
  'missed',
  'removed',
  'none',
] as const;

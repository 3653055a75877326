// Each MCP tool (named by its contract id) answers through the same exported route
// handler as its HTTP endpoint. Every contract endpoint not in EXCLUDED_FROM_MCP must
// have an entry here; the test 'every contract endpoint except the listed exclusions is a
// tool answered by its own route handler' in lib/mcp/tools.test.ts fails loudly for a missing one.
import type { RouteHandler } from '@/lib/mcp/call';
import * as activities from '../v1/activities.json/route';
import * as events from '../v1/events.json/route';
import * as me from '../v1/me.json/route';
import * as meComplete from '../v1/me/complete.json/route';
import * as mePhoto from '../v1/me/photo.json/route';
import * as register from '../v1/register.json/route';
import * as parseAvailability from '../v1/availability/parse.json/route';
import * as publicProfile from '../v1/users/[slug]/profile.json/route';
import * as blocks from '../v1/me/blocks.json/route';
import * as pushTokens from '../v1/me/push_tokens.json/route';
import * as buddyRequests from '../v1/buddy_requests.json/route';
import * as acceptRequest from '../v1/buddy_requests/[invitationId]/accept.json/route';
import * as declineRequest from '../v1/buddy_requests/[invitationId]/decline.json/route';
import * as cancelRequest from '../v1/buddy_requests/[invitationId]/cancel.json/route';
import * as chats from '../v1/chats.json/route';
import * as messages from '../v1/chats/[chatId]/messages.json/route';
import * as chatRead from '../v1/chats/[chatId]/read.json/route';
import * as discover from '../v1/discover.json/route';
import * as inbox from '../v1/inbox.json/route';
import * as password from '../v1/me/password.json/route';
import * as tokens from '../v1/me/tokens.json/route';
import * as revokeToken from '../v1/me/tokens/[tokenId]/revoke.json/route';
import * as signinLink from '../v1/signin/link.json/route';
import * as buddyRequest from '../v1/users/[slug]/buddy_request.json/route';
import * as block from '../v1/users/[slug]/block.json/route';
import * as report from '../v1/users/[slug]/report.json/route';
import * as overlap from '../v1/users/[slug]/overlap.json/route';
import * as chatPlans from '../v1/chats/[chatId]/plans.json/route';
import * as planOptions from '../v1/users/[slug]/plan_options.json/route';
import * as plans from '../v1/plans.json/route';
import * as plan from '../v1/plans/[planId]/route';
import * as acceptPlan from '../v1/plans/[planId]/accept.json/route';
import * as declinePlan from '../v1/plans/[planId]/decline.json/route';
import * as cancelPlan from '../v1/plans/[planId]/cancel.json/route';

export const ROUTE_HANDLERS: Readonly<Record<string, RouteHandler>> = {
  get_signup_instructions: register.GET,
  register: register.POST,
  list_activities: activities.GET,
  parse_availability: parseAvailability.POST,
  get_my_profile: me.GET,
  update_my_profile: me.PATCH,
  get_onboarding_status: meComplete.GET,
  complete_onboarding: meComplete.POST,
  upload_photo: mePhoto.POST,
  get_public_profile: publicProfile.GET,
  list_events: events.GET,
  send_buddy_request: buddyRequest.POST,
  list_buddy_requests: buddyRequests.GET,
  accept_buddy_request: acceptRequest.POST,
  decline_buddy_request: declineRequest.POST,
  cancel_buddy_request: cancelRequest.POST,
  list_chats: chats.GET,
  list_messages: messages.GET,
  send_message: messages.POST,
  mark_chat_read: chatRead.POST,
  get_inbox: inbox.GET,
  block_user: block.POST,
  unblock_user: block.DELETE,
  list_blocks: blocks.GET,
  report_user: report.POST,
  register_push_token: pushTokens.POST,
  delete_push_token: pushTokens.DELETE,
  list_access_tokens: tokens.GET,
  revoke_access_token: revokeToken.POST,
  change_password: password.POST,
  exchange_signin_link: signinLink.POST,
  discover: discover.GET,
  get_shared_free_time: overlap.GET,
  propose_plan: chatPlans.POST,
  accept_plan: acceptPlan.POST,
  decline_plan: declinePlan.POST,
  cancel_plan: cancelPlan.POST,
  plan_options: planOptions.GET,
  list_plans: plans.GET,
  get_plan: plan.GET,
};

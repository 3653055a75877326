// Each MCP tool (named by its contract id) answers through the same exported route
// handler as its HTTP endpoint. Every contract endpoint not in EXCLUDED_FROM_MCP must
// have an entry here; lib/mcp/handlers.test.ts fails loudly for a missing one.
import type { RouteHandler } from '@/lib/mcp/call';
import * as activities from '../v1/activities.json/route';
import * as events from '../v1/events.json/route';
import * as me from '../v1/me.json/route';
import * as meComplete from '../v1/me/complete.json/route';
import * as mePhoto from '../v1/me/photo.json/route';
import * as register from '../v1/register.json/route';
import * as publicProfile from '../v1/users/[slug]/profile.json/route';

export const ROUTE_HANDLERS: Readonly<Record<string, RouteHandler>> = {
  get_signup_instructions: register.GET,
  register: register.POST,
  list_activities: activities.GET,
  get_my_profile: me.GET,
  update_my_profile: me.PATCH,
  get_onboarding_status: meComplete.GET,
  complete_onboarding: meComplete.POST,
  upload_photo: mePhoto.POST,
  get_public_profile: publicProfile.GET,
  list_events: events.GET,
};

// GET /api/v1/index.json and GET /api/v1/register.json, generated from the contract.
import { ageRules } from '../core/age-env';
import { REGISTER_EXAMPLE, registerBodySchema } from '../contract/accounts';
import { SCOPES, type EndpointSpec } from '../contract/define';
import { LIMITS } from '../contract/schemas';
import { DISCOVER_FIELDS } from '../profiles/onboarding';
import { toJsonSchema } from './json-schema';

export const API_NAME = 'Buddy Match API';
export const API_VERSION = '1.0.0';

export function buildIndex(endpoints: readonly EndpointSpec[], baseUrl: string) {
  return {
    name: API_NAME,
    version: API_VERSION,
    base_url: baseUrl,
    docs: {
      openapi: `${baseUrl}/.well-known/openapi.json`,
      mcp: `${baseUrl}/.well-known/mcp.json`,
      signup_guide: `${baseUrl}/SIGNUP.md`,
      agents_guide: `${baseUrl}/AGENTS.md`,
      llms_txt: `${baseUrl}/llms.txt`,
    },
    authentication: {
      scheme: 'Bearer' as const,
      header: 'Authorization: Bearer <ACCESS_TOKEN>',
      obtain: `POST ${baseUrl}/api/v1/register.json returns auth.token`,
      scopes: [...SCOPES],
    },
    endpoints: endpoints.map((e) => ({
      id: e.id,
      method: e.method,
      path: e.path,
      url: `${baseUrl}${e.path}`,
      auth: e.auth,
      summary: e.summary,
    })),
  };
}

export function registerBodyJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...toJsonSchema(registerBodySchema, 'input', 'draft-2020-12'),
  };
}

/** The limits a signup runs into, as numbers (the configured ones, not their variable names). */
export function buildSignupInstructions(
  baseUrl: string,
  limits: { registrationsPerHour: number; photoUploadsPerHour: number },
) {
  return {
    endpoint: `${baseUrl}/api/v1/register.json`,
    method: 'POST' as const,
    instructions: [
      'Ask the user for their email and the name to show; ask before sharing anything else about them.',
      'For a profile that shows in Discover also collect: a short bio, gender, birthday (YYYY-MM-DD, 13+), location (city), 1-5 activities in plain words, when they are usually free in plain words, and a photo.',
      `POST the JSON body to ${baseUrl}/api/v1/register.json with Content-Type: application/json. Missing Discover fields are not errors.`,
      'Read warnings: repeat warnings.schedule_summary to the user to confirm their availability, and offer activities_suggestions for activities_unmatched.',
      'Keep auth.token secret: send it as Authorization: Bearer <token> on later calls. Show the user auth.mobile_signin_url (single use, about one hour) and auth.generated_password if present.',
      'Show the user next_action_for_user. Never invent a response: only relay what the API returned.',
      `If you cannot send a POST, give the user a link to ${baseUrl}/signup-with-ai with the fields as URL-encoded query parameters instead.`,
    ],
    required: ['email', 'displayName'],
    required_for_discover: [...DISCOVER_FIELDS],
    limits: {
      displayName: LIMITS.displayName,
      aboutMe: LIMITS.aboutMe,
      location: LIMITS.location,
      availability_text: LIMITS.availabilityText,
      activities: LIMITS.activities,
      password_min: LIMITS.passwordMin,
      minimum_age: ageRules().minimumAge,
      photo_bytes: LIMITS.photoBytes,
      registrations_per_ip_per_hour: limits.registrationsPerHour,
      photos_per_ip_per_hour: limits.photoUploadsPerHour,
    },
    schema: registerBodyJsonSchema(),
    example: { ...REGISTER_EXAMPLE },
    browser_fallback: `${baseUrl}/signup-with-ai?email=...&name=...&location=...&activities=...&availability=...`,
  };
}

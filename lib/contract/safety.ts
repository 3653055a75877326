// Blocks and reports (SPEC 7, 8).
import { z } from 'zod';
import { defineEndpoint } from './define';
import { reportReasonInputSchema } from './forgiving';
import { SOCIAL_LIMITS } from './limits';
import { API_PATHS } from './paths';
import { attributionBody, attributionFields, isoDateTime, slugParams, successTrue, userCardSchema } from './schemas';
import { freeText, singleLine } from './text';

export const blockUser = defineEndpoint({
  id: 'block_user',
  title: 'Block someone',
  method: 'POST',
  path: API_PATHS.block,
  auth: 'buddy:write',
  // cuts off another person
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['safety'],
  summary: 'Block someone: no requests or messages either way; they vanish from your lists',
  toolHint: 'Only when the person asks.',
  description: 'Idempotent. They are not told. Existing chats stay stored but hidden from you until you unblock.',
  params: slugParams,
  body: attributionBody,
  bodyOptional: true,
  response: z.object({ success: successTrue, blocked: z.boolean(), user: userCardSchema }),
  errors: ['not_found', 'cannot_target_self'],
});

export const unblockUser = defineEndpoint({
  id: 'unblock_user',
  title: 'Unblock someone',
  method: 'DELETE',
  path: API_PATHS.block,
  auth: 'buddy:write',
  // removes the block: another person can reach you again
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['safety'],
  summary: 'Unblock someone (idempotent)',
  params: slugParams,
  body: attributionBody,
  bodyOptional: true,
  response: z.object({ success: successTrue, blocked: z.boolean(), user: userCardSchema }),
  errors: ['not_found', 'cannot_target_self'],
});

export const listBlocks = defineEndpoint({
  id: 'list_blocks',
  title: 'Blocked people',
  method: 'GET',
  path: API_PATHS.blocks,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['safety'],
  summary: 'The people you have blocked',
  response: z.object({ blocked: z.array(userCardSchema.extend({ blocked_at: isoDateTime })) }),
});

export const reportBodySchema = z.strictObject({
  reason: reportReasonInputSchema.describe('A listed reason, or plain words read as one'),
  text: freeText().trim().max(SOCIAL_LIMITS.reportText).nullish().describe('What happened, in the user’s words'),
  chatId: singleLine().max(80).nullish().describe('The chat it happened in, if any'),
  block: z.boolean().nullish().describe('Also block them'),
  ...attributionFields,
});
export type ReportBody = z.infer<typeof reportBodySchema>;

export const reportUser = defineEndpoint({
  id: 'report_user',
  title: 'Report someone',
  method: 'POST',
  path: API_PATHS.report,
  auth: 'buddy:write',
  // adds a report for moderators
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  tags: ['safety'],
  summary: 'Report someone to the moderators (optionally blocking them too)',
  toolHint: 'Only when the person asks.',
  params: slugParams,
  body: reportBodySchema,
  response: z.object({
    success: successTrue,
    reportId: z.string(),
    blocked: z.boolean(),
    warnings: z
      .object({ normalized: z.array(z.string()) })
      .optional()
      .describe('Present when the reason was given in plain words: how it was read'),
  }),
  status: 201,
  errors: ['validation_failed', 'not_found', 'cannot_target_self'],
  requestExample: { reason: 'harassment', text: 'Kept messaging after I said no.', block: true },
});

export const safetyEndpoints = [blockUser, unblockUser, listBlocks, reportUser] as const;

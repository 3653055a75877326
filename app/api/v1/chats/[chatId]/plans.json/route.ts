import { withCallerAgent } from '@/lib/attribution/attribution';
import * as plans from '@/lib/contract/plans';
import { route } from '@/lib/http/route';
import { proposePlan } from '@/lib/plans/plans';

// POST /api/v1/chats/{chatId}/plans.json – propose a plan (or a counter-proposal) to the buddy of this chat.
export const POST = route(plans.proposePlan, async ({ db, auth, params, body, baseUrl }) =>
  proposePlan(db, {
    viewerId: auth.userId,
    chatId: params.chatId,
    body,
    by: withCallerAgent(auth, body),
    baseUrl,
  }),
);

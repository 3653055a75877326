// Reports to the moderators, optionally blocking the reported person in the same transaction.
import type { Database } from '@/db';
import { recordAgentAction } from '../attribution/attribution';
import type { ReportBody } from '../contract/safety';
import { ApiError } from '../core/errors';
import { isUuid } from '../contract/validation';
import { blockStatus } from '../blocks/status';
import { insertBlock, resolveOtherUser } from './blocks';

export async function reportUser(
  db: Database,
  { viewerId, slugOrId, body }: { viewerId: string; slugOrId: string; body: ReportBody },
) {
  const target = await resolveOtherUser(db, { viewerId, slugOrId, action: 'report' });
  const chatId = body.chatId || null;
  return db.transaction().execute(async (trx) => {
    if (chatId) {
      // Only a chat between the two of them can be attached.
      const shared = isUuid(chatId)
        ? await trx
            .selectFrom('chat_members')
            .select('chat_id')
            .where('chat_id', '=', chatId)
            .where('user_id', '=', viewerId)
            .where('other_user_id', '=', target.id)
            .executeTakeFirst()
        : undefined;
      if (!shared) {
        throw new ApiError('validation_failed', 'That chat is not one between you and this person.', {
          hint: 'Give the chatId of your chat with this person, or leave it out.',
          fields: { chatId: 'not a chat between you and this person' },
        });
      }
    }
    const report = await trx
      .insertInto('reports')
      .values({
        reporter_id: viewerId,
        reported_id: target.id,
        reason: body.reason,
        text: body.text || null,
        chat_id: chatId,
        agent_name: body.agentName ?? null,
        agent_session_id: body.agentSessionId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (body.block) await insertBlock(trx, { blockerId: viewerId, blockedId: target.id, by: body });
    await recordAgentAction(trx, viewerId, 'report_user', body);
    const { byMe } = await blockStatus(trx, { viewerId, otherId: target.id });
    return { success: true as const, reportId: report.id, blocked: byMe };
  });
}

import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { setChatMuted } from '@/lib/chats/mute';

// POST /api/v1/chats/{chatId}/mute.json – mute or unmute one chat's notifications
export const POST = route(webApp.muteChat, async ({ db, auth, params, body }) => {
  await setChatMuted(db, { userId: auth.userId, chatId: params.chatId, muted: body.muted });
  return { success: true as const, chatId: params.chatId, muted: body.muted };
});

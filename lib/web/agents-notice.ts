/** The cookie that remembers the newest assistant the home screen already told the person of (issue 46 §2). */
export const AGENTS_NOTICE_COOKIE = 'bm_agents_notice';

// Which browser specs `npm run test:changed` runs for a changed web source (scripts/test-changed.ts).
// A changed file reaches the pages that import it (through app/_components, lib/web, …); each page
// or door below names the specs that open it. A web source no rule reaches runs every spec, and so
// does a change to the browser tests' own support. scripts/test-changed.test.ts keeps the list whole:
// every spec is named, and every prefix still names files.

/** Sources the browser specs test; a change elsewhere (lib/<domain>, the API) is the API tests' to cover. */
export const WEB_SOURCES = /^(app\/(?!api\/)|lib\/web\/|lib\/mcp\/views\/|server\/doors\/|public\/|proxy\.ts$)/;

/** Changes that run every spec. */
export const EVERY_SPEC =
  /^(e2e\/browser\/support\.ts|e2e\/support\/(playwright-setup|stack)\.ts|playwright\.config\.ts|app\/(layout\.tsx|globals\.css)|proxy\.ts)$/;

export const SPECS_BY_SOURCE: readonly { prefix: string; specs: readonly string[] }[] = [
  { prefix: 'server/doors/home.tsx', specs: ['home', 'front-door', 'public-profile', 'js-budget'] },
  { prefix: 'server/doors/share.tsx', specs: ['plan-share', 'meetup-share'] },
  { prefix: 'server/doors/static.ts', specs: ['front-door', 'offline', 'web-push'] },
  { prefix: 'public/', specs: ['front-door', 'offline', 'web-push'] },
  { prefix: 'app/manifest.ts', specs: ['front-door', 'web-push'] },
  { prefix: 'app/not-found.tsx', specs: ['home', 'public-profile', 'front-door'] },
  { prefix: 'app/account/agents/', specs: ['account', 'navigation', 'takeover', 'oauth'] },
  {
    prefix: 'app/account/chats/',
    specs: ['chat-profile', 'chat-thread', 'social', 'navigation', 'offline', 'js-budget', 'web-push', 'plans'],
  },
  { prefix: 'app/account/discover/', specs: ['discover', 'discover-browse', 'social', 'photo-step', 'meetups'] },
  { prefix: 'app/account/meetups/', specs: ['meetups', 'meetup-share'] },
  { prefix: 'app/account/password/', specs: ['account', 'human-words', 'takeover', 'signin'] },
  { prefix: 'app/account/photo/', specs: ['photo-step', 'social'] },
  { prefix: 'app/account/plans/', specs: ['plans', 'plan-share'] },
  { prefix: 'app/account/profile/', specs: ['account', 'profile-editor', 'human-words', 'social'] },
  { prefix: 'app/account/requests/', specs: ['social', 'navigation', 'discover-browse', 'web-push'] },
  { prefix: 'app/account/settings/', specs: ['account', 'your-data', 'web-push', 'offline'] },
  { prefix: 'app/account/tokens/', specs: ['account', 'takeover', 'navigation'] },
  { prefix: 'app/account/page.tsx', specs: ['account', 'navigation', 'plans', 'show-me'] },
  { prefix: 'app/account/layout.tsx', specs: ['account', 'navigation', 'social'] },
  { prefix: 'app/signin/', specs: ['signin', 'smtp', 'takeover', 'human-words'] },
  { prefix: 'app/auth/', specs: ['signin', 'oauth', 'smtp'] },
  { prefix: 'app/u/', specs: ['public-profile', 'chat-profile', 'discover-browse'] },
  { prefix: 'app/(web)/docs/', specs: ['docs'] },
  { prefix: 'app/(web)/oauth/', specs: ['oauth', 'navigation'] },
  { prefix: 'app/(web)/offline/', specs: ['offline', 'web-push'] },
  { prefix: 'app/(web)/signup/', specs: ['front-door', 'human-words', 'signin', 'discover-browse', 'photo-step'] },
  { prefix: 'app/(web)/signup-with-ai/', specs: ['signup-with-ai', 'human-words', 'show-me'] },
  { prefix: 'app/(web)/start/', specs: ['front-door'] },
  { prefix: 'lib/mcp/views/', specs: ['mcp-apps', 'mcp-apps-profile', 'mcp-apps-chat-plan'] },
];

/** The spec file a short name in the list stands for. */
export const specFile = (name: string) => `e2e/browser/${name}.spec.ts`;

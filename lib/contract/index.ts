// The contract table: every endpoint of the service, declared once.
import { accountEndpoints } from './accounts';
import { buddyEndpoints } from './buddies';
import { chatEndpoints } from './chats';
import type { AgentEndpointSpec, EndpointSpec } from './define';
import { eventEndpoints } from './events';
import { discoverEndpoints } from './discover';
import { deviceEndpoints } from './devices';
import { inboxEndpoints } from './inbox';
import { meetupEndpoints } from './meetups';
import { metaEndpoints } from './meta';
import { photoEndpoints } from './photos';
import { planEndpoints } from './plans';
import { profileEndpoints } from './profiles';
import { safetyEndpoints } from './safety';
import { signinEndpoints } from './signin';
import { webAppEndpoints } from './web-app';

// AgentEndpointSpec: an entry without its four MCP tool hints does not compile.
export const endpoints: readonly AgentEndpointSpec[] = [
  ...metaEndpoints,
  ...accountEndpoints,
  ...profileEndpoints,
  ...signinEndpoints,
  ...photoEndpoints,
  ...buddyEndpoints,
  ...inboxEndpoints,
  ...chatEndpoints,
  ...safetyEndpoints,
  ...deviceEndpoints,
  ...planEndpoints,
  ...eventEndpoints,
  ...discoverEndpoints,
  ...meetupEndpoints,
];

/** Every routed endpoint: the agents' API and the web app's own (lib/contract/web-app.ts). */
export const allEndpoints: readonly EndpointSpec[] = [...endpoints, ...webAppEndpoints];

export * from './define';

// The contract table: every endpoint of the service, declared once.
import { accountEndpoints } from './accounts';
import type { EndpointSpec } from './define';
import { eventEndpoints } from './events';
import { metaEndpoints } from './meta';
import { profileEndpoints } from './profiles';

export const endpoints: readonly EndpointSpec[] = [
  ...metaEndpoints,
  ...accountEndpoints,
  ...profileEndpoints,
  ...eventEndpoints,
];

export * from './define';

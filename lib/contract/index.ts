// The contract table: every endpoint of the service, declared once.
import { accountEndpoints } from './accounts';
import type { EndpointSpec } from './define';
import { discoverEndpoints } from './discover';
import { metaEndpoints } from './meta';
import { profileEndpoints } from './profiles';

export const endpoints: readonly EndpointSpec[] = [...metaEndpoints, ...accountEndpoints, ...profileEndpoints, ...discoverEndpoints];

export * from './define';

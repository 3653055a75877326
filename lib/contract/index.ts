// The contract table: every endpoint of the service, declared once.
import { accountEndpoints } from './accounts';
import type { EndpointSpec } from './define';
import { metaEndpoints } from './meta';
import { profileEndpoints } from './profiles';
import { signinEndpoints } from './signin';

export const endpoints: readonly EndpointSpec[] = [...metaEndpoints, ...accountEndpoints, ...profileEndpoints, ...signinEndpoints];

export * from './define';

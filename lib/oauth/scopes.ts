import { SCOPES, type Scope } from '../contract/define';

/** The API scopes a request asked for; none named means the seven a bearer token gets. */
export function requestedApiScopes(scope: unknown): Scope[] {
  const asked = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
  const api = SCOPES.filter((s) => asked.includes(s));
  return api.length ? api : [...SCOPES];
}

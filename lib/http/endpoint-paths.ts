// Which methods a /api/v1 path takes, and which endpoints a wrong path was probably meant
// to be, both read from the contract table (the same one the route files implement).
import { editDistance } from '../activities/similarity';
import { allEndpoints as endpoints, type EndpointSpec } from '../contract';
import { API_PATHS, type PathName } from '../contract/paths';

interface PathEntry {
  template: string;
  pattern: RegExp;
  specs: EndpointSpec[];
}

/** A contract path template as a pattern; each `{name}` segment is a named group. */
export function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) =>
      /^\{\w+\}$/.test(part) ? `(?<${part.slice(1, -1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

function buildTable(): PathEntry[] {
  const byPath = new Map<string, PathEntry>();
  for (const spec of endpoints) {
    let entry = byPath.get(spec.path);
    if (!entry) {
      entry = { template: spec.path, pattern: templatePattern(spec.path), specs: [] };
      byPath.set(spec.path, entry);
    }
    entry.specs.push(spec);
  }
  // A path without parameters before the templates it also fits (/plans/read_time.json before
  // /plans/{planId}.json), as the router itself matches them.
  const entries = [...byPath.values()];
  return [...entries.filter((e) => !e.template.includes('{')), ...entries.filter((e) => e.template.includes('{'))];
}

let table: PathEntry[] | undefined;
const pathTable = () => (table ??= buildTable());

/** The endpoints served at this concrete path (one per method), or none. */
export function endpointsAt(pathname: string): EndpointSpec[] {
  return pathTable().find((entry) => entry.pattern.test(pathname))?.specs ?? [];
}

/** The Allow header for a path's endpoints: their methods, plus HEAD (for GET) and OPTIONS, which Next.js answers. */
export function allowedMethods(specs: readonly EndpointSpec[]): readonly string[] {
  let allow = allowedBySpecs.get(specs);
  if (!allow) {
    const methods = new Set<string>(specs.map((s) => s.method));
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    allowedBySpecs.set(specs, (allow = [...methods].sort()));
  }
  return allow;
}
/** Each path's endpoint list (the same array for every request to it) → its Allow. */
const allowedBySpecs = new WeakMap<readonly EndpointSpec[], readonly string[]>();

/** The part of a path that tells endpoints apart: no /api/v1 prefix, no .json, no trailing slash. */
const core = (path: string) =>
  path
    .toLowerCase()
    .replace(/^\/api(\/v\d+)?(?=\/|$)/, '')
    .replace(/\/+$/, '')
    .replace(/\.json$/, '');

const MAX_SUGGESTED_PATH_CHARS = 200;

/**
 * Names agents reach for that are not ours and not near ours in spelling (`/signup`,
 * `/users`, `/profile`): edit distance cannot find register.json or me.json from them.
 * Keyed by the path without /api/v1, .json and slashes at the ends, `-` read as `_`.
 */
// A Map: the key is the caller's path, and /api/v1/constructor must not find Object (issue 41).
const SYNONYMS: ReadonlyMap<string, readonly PathName[]> = (() => {
  const table: Array<[string[], PathName[]]> = [
    [
      [
        'signup',
        'sign_up',
        'register',
        'registration',
        'join',
        'users',
        'accounts',
        'create_account',
        'account/create',
      ],
      ['register'],
    ],
    [
      ['profile', 'profiles', 'me', 'user', 'account', 'my_profile', 'me/profile', 'users/me', 'whoami', 'self'],
      ['me'],
    ],
    [['messages', 'conversations', 'threads', 'dms', 'chat'], ['chats']],
    [
      ['friends', 'buddies', 'connections', 'contacts', 'requests', 'invitations'],
      ['buddyRequests', 'chats'],
    ],
    [['matches', 'match', 'search', 'people', 'nearby', 'find', 'browse'], ['discover']],
    [['notifications', 'updates', 'feed', 'poll'], ['inbox']],
    [
      ['login', 'log_in', 'signin', 'sign_in', 'auth', 'token', 'magic_link'],
      ['signinLink', 'tokens'],
    ],
    [['photo', 'avatar', 'picture', 'upload', 'me/avatar', 'me/picture'], ['photo']],
    [['interests', 'hobbies', 'categories'], ['activities']],
    [['blocked', 'block', 'me/blocked'], ['blocks']],
    [['endpoints', 'help', 'docs', 'openapi'], ['index']],
  ];
  return new Map(table.flatMap(([words, names]) => words.map((word) => [word, names] as const)));
})();

function synonymEndpoints(method: string, pathname: string): EndpointSpec[] {
  const key = core(pathname).replace(/^\/+/, '').replace(/-/g, '_');
  const paths = (SYNONYMS.get(key) ?? []).map((name) => API_PATHS[name] as string);
  return paths.flatMap((path) => {
    const specs = endpoints.filter((spec) => spec.path === path);
    // The endpoint at that path with the caller's method, or every method it has.
    const same = specs.filter((spec) => spec.method === method);
    return same.length > 0 ? same : specs;
  });
}

/**
 * Up to `limit` endpoints whose path is closest to `pathname`: each template is filled
 * with the request's own segments (so ids do not count as differences), then compared by
 * edit distance without the /api/v1 prefix and the .json suffix; the same method wins a
 * tie. `/api/v1/inbox` finds `/api/v1/inbox.json`, `/api/v1/me/photos.json` finds `/api/v1/me/photo.json`.
 * Synonyms (`/signup` → register.json) come first.
 */
export function closestEndpoints(method: string, pathname: string, limit = 3): EndpointSpec[] {
  // No endpoint path is near this long: a 16 KB path would cost every comparison 16 K × 16 K steps.
  if (pathname.length > MAX_SUGGESTED_PATH_CHARS) return [];
  const wanted = core(pathname);
  const segments = wanted.split('/');
  const allowed = Math.max(3, Math.floor(wanted.length * 0.4));
  const scored: Array<{ spec: EndpointSpec; score: number }> = [];
  for (const spec of endpoints) {
    const filled = core(spec.path)
      .split('/')
      .map((part, i) => (/^\{\w+\}$/.test(part) && segments[i] ? segments[i] : part))
      .join('/');
    const distance = editDistance(wanted, filled, allowed);
    if (distance <= allowed) scored.push({ spec, score: distance + (spec.method === method ? 0 : 0.5) });
  }
  scored.sort((a, b) => a.score - b.score);
  const synonyms = synonymEndpoints(method, pathname);
  return [...new Set([...synonyms, ...scored.map((s) => s.spec)])].slice(0, limit);
}

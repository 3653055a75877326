// The answer to any /api path no endpoint serves: the JSON not_found envelope, never
// Next.js's HTML 404 page (agents parse every /api answer as JSON), naming the endpoints
// the caller most likely meant.
import { echoed } from './echo';
import { closestEndpoints } from './endpoint-paths';
import { ApiError, ERROR_ADVICE } from '../core/errors';
import { errorResponse } from './route';

export function unknownEndpoint(request: Request): Response {
  const { pathname } = new URL(request.url);
  const closest = closestEndpoints(request.method, pathname).map((spec) => `${spec.method} ${spec.path}`);
  const guess = closest.length ? ` Did you mean ${closest.map((c) => `\`${c}\``).join(' or ')}?` : '';
  return errorResponse(
    new ApiError('not_found', `No endpoint ${echoed(request.method, 20)} ${echoed(pathname)}.${guess}`, {
      hint: `${ERROR_ADVICE.not_found} Paths end in .json; every endpoint is listed at /api/v1/index.json.`,
    }),
  );
}

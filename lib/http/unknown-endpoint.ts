// The answer to any /api path no endpoint serves: the JSON not_found envelope, never
// Next.js's HTML 404 page (agents parse every /api answer as JSON).
import { ApiError, ERROR_ADVICE } from './errors';
import { errorResponse } from './route';

export function unknownEndpoint(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(
    new ApiError('not_found', `No endpoint ${request.method} ${pathname}`, {
      hint: `${ERROR_ADVICE.not_found} Every endpoint is listed at /api/v1/index.json.`,
    }),
  );
}

import { ApiError, ERROR_ADVICE } from '@/lib/http/errors';
import { errorResponse } from '@/lib/http/route';

// ANY /api/v1/<unknown path> – a JSON not_found envelope instead of the HTML 404 page
function unknownEndpoint(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(
    new ApiError('not_found', `No endpoint ${request.method} ${pathname}`, {
      hint: `${ERROR_ADVICE.not_found} Every endpoint is listed at /api/v1/index.json.`,
    }),
  );
}

export { unknownEndpoint as DELETE, unknownEndpoint as GET, unknownEndpoint as PATCH, unknownEndpoint as POST, unknownEndpoint as PUT };

import { unknownEndpoint } from '@/lib/http/unknown-endpoint';

// ANY /api/v1/<unknown path> – a JSON not_found envelope instead of the HTML 404 page
export {
  unknownEndpoint as DELETE,
  unknownEndpoint as GET,
  unknownEndpoint as PATCH,
  unknownEndpoint as POST,
  unknownEndpoint as PUT,
};

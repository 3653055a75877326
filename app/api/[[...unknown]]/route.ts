import { unknownEndpoint } from '@/lib/http/unknown-endpoint';

// ANY /api or /api/<unknown path> outside /api/v1 (for example /api/v1/%2e%2e/x, which
// is /api/x once its dot-segment is removed) – the JSON not_found envelope, like /api/v1
export {
  unknownEndpoint as DELETE,
  unknownEndpoint as GET,
  unknownEndpoint as PATCH,
  unknownEndpoint as POST,
  unknownEndpoint as PUT,
};

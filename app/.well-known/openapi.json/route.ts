import { config } from '@/lib/config';
import { endpoints } from '@/lib/contract';
import { buildOpenApi } from '@/lib/docs/openapi';
import { publicJson, publicOptions } from '@/lib/docs/serve';

// GET /.well-known/openapi.json – the OpenAPI 3.0.3 document, generated from the contract
export function GET(): Response {
  return publicJson(buildOpenApi(endpoints, config().publicBaseUrl));
}

// OPTIONS /.well-known/openapi.json – CORS preflight
export const OPTIONS = publicOptions;

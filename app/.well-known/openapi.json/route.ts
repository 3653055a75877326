import { config } from '@/lib/config';
import { endpoints } from '@/lib/contract';
import { openApiJson } from '@/lib/docs/openapi';
import { publicDocument, publicOptions } from '@/lib/docs/serve';

// GET /.well-known/openapi.json – the OpenAPI 3.0.3 document, generated from the contract
// (compact JSON: indentation would double what an agent reads)
export function GET(): Response {
  return publicDocument(openApiJson(endpoints, config().publicBaseUrl), 'application/json');
}

// OPTIONS /.well-known/openapi.json – CORS preflight
export const OPTIONS = publicOptions;

import { buildOpenApiDocument } from '@/lib/api';

export const dynamic = 'force-static';

/** The OpenAPI 3.1 document of the API, generated from the request schemas. */
export function GET(): Response {
  return Response.json(buildOpenApiDocument());
}

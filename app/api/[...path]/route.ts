import { json } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** Any other /api path: the SPEC's JSON error shape, not the HTML 404 page. */
function notFound(): Response {
  return json({ error: { code: 'not_found', message: 'no such API endpoint' } }, 404);
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;

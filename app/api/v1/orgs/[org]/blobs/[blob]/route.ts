import { describeBlobResponse, methodNotAllowed, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** SPEC §3.3: a blob's id, org, type, default revision and revisions. */
export const GET = withActor<{ params: Promise<{ org: string; blob: string }> }>(async (_req, actor, ctx) => {
  const { org, blob } = await ctx.params;
  return describeBlobResponse(actor, org, blob);
});

// A blob is not deleted or replaced through the API (SPEC §3.3): these answer 405 in the error shape.
export const POST = methodNotAllowed('GET');
export const PUT = methodNotAllowed('GET');
export const PATCH = methodNotAllowed('GET');
export const DELETE = methodNotAllowed('GET');

import { createBlobResponse, listBlobsResponse, methodNotAllowed, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ org: string }> };

/** SPEC §3.3: the blobs of `{org}` the caller can read. */
export const GET = withActor<Ctx>(async (_req, actor, ctx) => listBlobsResponse(actor, (await ctx.params).org));

/** Create a workflow or scheduler blob in `{org}` (SPEC §3.2 "create blob"). */
export const POST = withActor<Ctx>(async (req, actor, ctx) => createBlobResponse(req, actor, (await ctx.params).org));

export const PUT = methodNotAllowed('GET, POST');
export const PATCH = methodNotAllowed('GET, POST');
export const DELETE = methodNotAllowed('GET, POST');

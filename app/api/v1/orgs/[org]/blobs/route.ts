import { listBlobsResponse, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** SPEC §3.3: the blobs of `{org}` the caller can read. */
export const GET = withActor<{ params: Promise<{ org: string }> }>(async (_req, actor, ctx) =>
  listBlobsResponse(actor, (await ctx.params).org),
);

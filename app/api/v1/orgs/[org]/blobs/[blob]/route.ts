import { describeBlobResponse, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** SPEC §3.3: a blob's id, org, type, default revision and revisions. */
export const GET = withActor<{ params: Promise<{ org: string; blob: string }> }>(async (_req, actor, ctx) => {
  const { org, blob } = await ctx.params;
  return describeBlobResponse(actor, org, blob);
});

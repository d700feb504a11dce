import { methodNotAllowed, testAlertChannelResponse, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ org: string; channel: string }> };

/** SPEC §17 Send test: a sample alert now; answers what the channel answered `{ok, status?, message}`. */
export const POST = withActor<Ctx>(async (_req, actor, ctx) => {
  const { org, channel } = await ctx.params;
  return testAlertChannelResponse(actor, org, decodeURIComponent(channel));
});

export const GET = methodNotAllowed('POST');
export const PUT = methodNotAllowed('POST');
export const PATCH = methodNotAllowed('POST');
export const DELETE = methodNotAllowed('POST');

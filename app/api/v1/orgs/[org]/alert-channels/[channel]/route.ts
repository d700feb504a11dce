import { deleteAlertChannelResponse, getAlertChannelResponse, methodNotAllowed, updateAlertChannelResponse, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ org: string; channel: string }> };

/** SPEC §17: one alert channel (by id or name), its secrets masked. */
export const GET = withActor<Ctx>(async (_req, actor, ctx) => {
  const { org, channel } = await ctx.params;
  return getAlertChannelResponse(actor, org, decodeURIComponent(channel));
});

/** SPEC §17: `{name?, config?, rotate_secret?}`; a masked secret sent back keeps the stored one. */
export const PATCH = withActor<Ctx>(async (req, actor, ctx) => {
  const { org, channel } = await ctx.params;
  return updateAlertChannelResponse(req, actor, org, decodeURIComponent(channel));
});

export const DELETE = withActor<Ctx>(async (_req, actor, ctx) => {
  const { org, channel } = await ctx.params;
  return deleteAlertChannelResponse(actor, org, decodeURIComponent(channel));
});

export const POST = methodNotAllowed('GET, PATCH, DELETE');
export const PUT = methodNotAllowed('GET, PATCH, DELETE');

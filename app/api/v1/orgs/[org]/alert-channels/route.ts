import { createAlertChannelResponse, listAlertChannelsResponse, methodNotAllowed, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ org: string }> };

/** SPEC §17: the org's alert channels (its admins). */
export const GET = withActor<Ctx>(async (_req, actor, ctx) => listAlertChannelsResponse(actor, (await ctx.params).org));

/** SPEC §17: a new channel; a webhook's signing secret is in this answer only. */
export const POST = withActor<Ctx>(async (req, actor, ctx) => createAlertChannelResponse(req, actor, (await ctx.params).org));

export const PUT = methodNotAllowed('GET, POST');
export const PATCH = methodNotAllowed('GET, POST');
export const DELETE = methodNotAllowed('GET, POST');

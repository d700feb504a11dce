import { getAwsSettingsResponse, methodNotAllowed, updateAwsSettingsResponse, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ org: string }> };

/** SPEC §13.5: the org's AWS settings (its admins). */
export const GET = withActor<Ctx>(async (_req, actor, ctx) => getAwsSettingsResponse(actor, (await ctx.params).org));

/** SPEC §13.5: change `credentials` and `allowed_accounts` (its admins, with a write key). */
export const PATCH = withActor<Ctx>(async (req, actor, ctx) => updateAwsSettingsResponse(req, actor, (await ctx.params).org));

export const POST = methodNotAllowed('GET, PATCH');
export const PUT = methodNotAllowed('GET, PATCH');
export const DELETE = methodNotAllowed('GET, PATCH');

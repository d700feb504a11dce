import { methodNotAllowed, rotateExternalIdResponse, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ org: string }> };

/** SPEC §13.5: a new ExternalId for the org (its admins, with a write key). */
export const POST = withActor<Ctx>(async (_req, actor, ctx) => rotateExternalIdResponse(actor, (await ctx.params).org));

export const GET = methodNotAllowed('POST');
export const PUT = methodNotAllowed('POST');
export const PATCH = methodNotAllowed('POST');
export const DELETE = methodNotAllowed('POST');

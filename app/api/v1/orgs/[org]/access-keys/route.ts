import { listAccessKeysResponse, methodNotAllowed, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ org: string }> };

/** SPEC §14: the caller's access key pairs in `{org}`. */
export const GET = withActor<Ctx>(async (_req, actor, ctx) => listAccessKeysResponse(actor, (await ctx.params).org));

export const POST = methodNotAllowed('GET');
export const PUT = methodNotAllowed('GET');
export const PATCH = methodNotAllowed('GET');
export const DELETE = methodNotAllowed('GET');

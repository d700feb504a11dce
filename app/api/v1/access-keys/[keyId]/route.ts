import { methodNotAllowed, revokeAccessKeyResponse, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ keyId: string }> };

/** SPEC §14: revoke an access key pair; requests signed with it are refused from now on. */
export const DELETE = withActor<Ctx>(async (_req, actor, ctx) => revokeAccessKeyResponse(actor, (await ctx.params).keyId));

export const GET = methodNotAllowed('DELETE');
export const POST = methodNotAllowed('DELETE');
export const PUT = methodNotAllowed('DELETE');
export const PATCH = methodNotAllowed('DELETE');

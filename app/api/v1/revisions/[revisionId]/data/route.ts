import { methodNotAllowed, handleRevisionCommand, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** SPEC §3: every scheduler and workflow command for one revision. */
export const POST = withActor<{ params: Promise<{ revisionId: string }> }>(async (req, actor, ctx) =>
  handleRevisionCommand(req, actor, (await ctx.params).revisionId),
);

export const GET = methodNotAllowed('POST');
export const PUT = methodNotAllowed('POST');
export const PATCH = methodNotAllowed('POST');
export const DELETE = methodNotAllowed('POST');

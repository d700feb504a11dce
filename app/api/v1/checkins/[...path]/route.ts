import { handleCheckin } from '@/lib/api';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ path: string[] }> };

/** SPEC §16.1: a check-in (no API key: the token in the path is the credential). */
async function checkin(req: Request, ctx: Ctx): Promise<Response> {
  return handleCheckin(req, (await ctx.params).path);
}

export const GET = checkin;
export const POST = checkin;
export const PUT = checkin;
export const PATCH = checkin;
export const DELETE = checkin;

import { acceptInvitationResponse } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** The invitation page's form target: a new account, or the signed-in user, joins the org (lib/api/web-login.ts). */
export const POST = (req: Request) => acceptInvitationResponse(req);

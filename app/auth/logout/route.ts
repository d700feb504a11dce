import { logoutResponse } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** The logout form's target: ends the session and clears the cookie (lib/api/web-login.ts). */
export const POST = (req: Request) => logoutResponse(req);

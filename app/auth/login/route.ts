import { loginResponse } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** The login form's target: email + password → session cookie (lib/api/web-login.ts). */
export const POST = (req: Request) => loginResponse(req);

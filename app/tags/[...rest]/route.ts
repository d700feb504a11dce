import { handleEventBridgeRequest } from '@/lib/api';

export const dynamic = 'force-dynamic';

/**
 * The EventBridge Scheduler-compatible API at AWS's own path (SPEC §14): SigV4-signed, rest-json.
 * Outside the browser-session middleware; lib/api/eventbridge authenticates every request.
 */
const handle = (req: Request) => handleEventBridgeRequest(req);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;

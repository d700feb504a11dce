import { handleEventBridgeRequest } from '@/lib/api';

/**
 * The EventBridge Scheduler-compatible API at AWS's own paths (SPEC §14): SigV4-signed, rest-json.
 * Outside the browser-session middleware; lib/api/eventbridge authenticates every request. Each of
 * `app/schedules`, `app/schedule-groups` and `app/tags` exports these for every method.
 */
const handle = (req: Request) => handleEventBridgeRequest(req);

export const eventBridgeRoutes = { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle };

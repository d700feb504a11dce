import { eventBridgeRoutes } from '@/app/_eventbridge/routes';

export const dynamic = 'force-dynamic';

/** The EventBridge Scheduler-compatible API (SPEC §14): app/_eventbridge/routes.ts. */
export const { GET, POST, PUT, PATCH, DELETE } = eventBridgeRoutes;

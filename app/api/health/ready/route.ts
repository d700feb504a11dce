import { probeResponse, readinessReport } from '@/lib/api';

export const dynamic = 'force-dynamic';

/**
 * Readiness probe: 200 `ready` when the database is reachable, its migrations current and a worker
 * heartbeat fresh; 503 `not_ready` naming each failing check otherwise (lib/api/health.ts). Always
 * JSON; no session needed (middleware.ts lets every /api path through).
 */
export function GET(): Promise<Response> {
  return probeResponse('the readiness check', () => readinessReport(new Date()), (r) => r.status === 'ready', { status: 'not_ready', reason: 'the readiness check failed; see the log' });
}

import { healthReport, probeResponse } from '@/lib/api';

export const dynamic = 'force-dynamic';

/**
 * 200 `ok` while the database is reachable, takes writes and a worker is alive; 503 `degraded` with the
 * reason otherwise (lib/api/health.ts). Always a JSON answer: anything unexpected is a 503 too.
 */
export function GET(): Promise<Response> {
  return probeResponse('the check', () => healthReport(new Date()), (r) => r.status === 'ok', { status: 'degraded', reason: 'the health check failed; see the log' });
}

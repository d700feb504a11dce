import { healthReport } from '@/lib/api';

export const dynamic = 'force-dynamic';

/**
 * 200 `ok` while the database is reachable, takes writes and a worker is alive; 503 `degraded` with the
 * reason otherwise (lib/api/health.ts). Always a JSON answer: anything unexpected is a 503 too.
 */
export async function GET(): Promise<Response> {
  const headers = { 'cache-control': 'no-store' };
  try {
    const report = await healthReport(new Date());
    return Response.json(report, { status: report.status === 'ok' ? 200 : 503, headers });
  } catch (e) {
    console.error(JSON.stringify({ level: 'error', msg: 'health: the check failed', error: e instanceof Error ? e.message : String(e) }));
    return Response.json({ status: 'degraded', reason: 'the health check failed; see the log' }, { status: 503, headers });
  }
}

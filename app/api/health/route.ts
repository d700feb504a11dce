import { healthReport } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** 200 `ok` while the database is reachable, takes writes and a worker is alive; 503 `degraded` with the reason otherwise (lib/api/health.ts). */
export async function GET(): Promise<Response> {
  const report = await healthReport(new Date());
  return Response.json(report, { status: report.status === 'ok' ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}

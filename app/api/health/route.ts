import { healthReport } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** 200 with JSON once the database is reachable; 503 otherwise. */
export async function GET(): Promise<Response> {
  const report = await healthReport(new Date());
  return Response.json(report, { status: report.status === 'ok' ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}

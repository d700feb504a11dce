import { healthReport } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** 200 with JSON when the database is reachable and takes writes; 503 otherwise (lib/api/health.ts). */
export async function GET(): Promise<Response> {
  const report = await healthReport(new Date());
  return Response.json(report, { status: report.status === 'ok' ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}

import { metricsText } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** `GET /metrics`: Prometheus text format, computed from the database (see lib/api/metrics.ts); 503 when it is unreachable. */
export async function GET(): Promise<Response> {
  try {
    const { body, contentType } = await metricsText(new Date());
    return new Response(body, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
  } catch (e) {
    return new Response(`# metrics unavailable: ${e instanceof Error ? e.message : String(e)}\n`, { status: 503, headers: { 'content-type': 'text/plain' } });
  }
}

import { metricsAllowed, metricsText } from '@/lib/api';
import { logger } from '@/lib/log';

export const dynamic = 'force-dynamic';

/**
 * `GET /metrics`: Prometheus text format, computed from the database (see lib/api/metrics.ts). Needs
 * `Authorization: Bearer $SCHEDULER_METRICS_TOKEN`, or a loopback client when no token is set (401
 * otherwise); 503 when the database is unreachable (details go to the log, not the answer).
 */
export async function GET(req: Request): Promise<Response> {
  if (!metricsAllowed(req.headers)) {
    return new Response('# metrics need Authorization: Bearer <SCHEDULER_METRICS_TOKEN> (or a loopback client when no token is set)\n', {
      status: 401,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer', 'cache-control': 'no-store' },
    });
  }
  try {
    const { body, contentType } = await metricsText(new Date());
    return new Response(body, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
  } catch (e) {
    logger.error('metrics: scrape failed', { error: e instanceof Error ? e.message : String(e) });
    return new Response('# metrics unavailable: the database could not be read\n', { status: 503, headers: { 'content-type': 'text/plain' } });
  }
}

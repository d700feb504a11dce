import { livenessReport } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** Liveness probe: 200 `{status: "ok"}` whenever the web process answers; no database access, no session (lib/api/health.ts). */
export function GET(): Response {
  return Response.json(livenessReport(), { headers: { 'cache-control': 'no-store' } });
}

import { webSessionOrCondition, workerStatus } from '@/app/lib/server';
import { LocalTime } from '@/components/local-time';

/**
 * Shown on every page to a signed-in operator while no worker is alive (lib/schedules
 * worker-heartbeats.ts: no heartbeat within 3 × the worker's interval): nothing fires meanwhile.
 * The time is in the viewer's own zone (UTC before hydration).
 */
export async function WorkerBanner() {
  const [{ session }, status] = await Promise.all([webSessionOrCondition(), workerStatus()]);
  if (!session || !status || status.alive > 0) return null;
  return (
    <div className="worker-banner" role="alert">
      <div className="worker-banner-inner">
        <strong>
          {status.lastSeenAt ? (
            <>
              No worker has fired since <LocalTime instant={status.lastSeenAt} />.
            </>
          ) : (
            'No worker has run yet.'
          )}
        </strong>{' '}
        Schedules are not firing: due occurrences wait (and are skipped once later than the catch-up window). Start a worker with{' '}
        <code>npm run worker</code> (or run both with <code>npm start</code>).
      </div>
    </div>
  );
}

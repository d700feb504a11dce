/**
 * The check-in endpoint (SPEC §16.1) served over real HTTP for worker tests —
 * `/api/v1/checkins/<token>[/suffix]`, answered at `now()` — and the engine whose attempts' check-in
 * URLs point at it (the product's, with the EventBridge facade's fire facts, as worker/main.ts binds it).
 */
import { CheckinRateLimiter, EVENTBRIDGE_FIRE_FACTS, handleCheckin } from '../api';
import { serverSecretKey } from '../config';
import type { Db } from '../db';
import { checkinKey, checkinUrls, schedulerEngine } from '../schedules';
import { serveFetch, type FetchServer } from './serve-fetch';

/** An engine that names check-in URLs (`schedulerEngine.with`). */
export type CheckinEngine = ReturnType<typeof schedulerEngine.with>;

/** Serve check-ins on `db` at the clock `now` (ms-exact instants); close `web` when done. */
export async function serveCheckins(db: Db, now: () => Date): Promise<{ web: FetchServer; engine: CheckinEngine }> {
  const key = serverSecretKey();
  const limiter = new CheckinRateLimiter();
  // The handler needs the engine, the engine the server's URL: the handler reads it at each request.
  const bound: { engine?: CheckinEngine } = {};
  const web = await serveFetch(async (req) => {
    const segments = new URL(req.url).pathname.split('/').slice(4);
    return handleCheckin(req, segments, { db, engine: bound.engine!, checkinKey: checkinKey(key) }, limiter, now());
  });
  bound.engine = schedulerEngine.with({ ...EVENTBRIDGE_FIRE_FACTS, checkins: checkinUrls(web.url, key) });
  return { web, engine: bound.engine };
}

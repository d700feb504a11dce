/**
 * `POST` / `GET /api/v1/checkins/<token>[/start|/fail|/<exit code 0–255>]` (SPEC §16.1): the token
 * is the credential, so no API key is asked. Every unknown token — malformed, not minted by this
 * server, naming a run swept or never made — and every unknown suffix answers the SAME 404 body
 * (`NOT_FOUND_BODY`), so a probe learns nothing. Each token may check in `CHECKIN_RATE.limit` times
 * per `CHECKIN_RATE.windowMs` in this process; more is `429 rate_limited` with `Retry-After`.
 */
import { checkIn, checkinKindOf, outcomeMessageOf, type CheckInOptions } from '../schedules';
import { errorResponse, json } from './http';
import { readBodyBytes } from './body';
import { runtime, type Runtime } from './runtime';

/** Largest check-in body, in bytes (SPEC §16.1: ≤ 10 KiB; its first 1 KiB is kept). */
export const CHECKIN_BODY_LIMIT_BYTES = 10 * 1024;

/** Check-ins one token may make per window, per web process (docs/decisions.md 191). */
export const CHECKIN_RATE = { limit: 30, windowMs: 60_000 } as const;

/** The one answer for every unknown check-in URL. */
export const NOT_FOUND_BODY = { error: { code: 'not_found', message: 'no such check-in URL' } } as const;

/** Tokens tracked at most before expired windows are dropped. */
const TRACKED_MAX = 10_000;

/**
 * A fixed-window counter per token: `take(token, now)` answers 0 when the check-in may go ahead,
 * else the ms until the token's window ends. Memory stays bounded: past `TRACKED_MAX` tokens, ended
 * windows are dropped, and if none has ended the oldest are.
 */
export class CheckinRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly rate: { limit: number; windowMs: number } = CHECKIN_RATE) {}

  take(token: string, nowMs: number): number {
    let w = this.windows.get(token);
    if (!w || nowMs - w.start >= this.rate.windowMs) {
      if (!w && this.windows.size >= TRACKED_MAX) this.prune(nowMs);
      w = { start: nowMs, count: 0 };
      this.windows.set(token, w);
    }
    if (w.count >= this.rate.limit) return w.start + this.rate.windowMs - nowMs;
    w.count++;
    return 0;
  }

  private prune(nowMs: number): void {
    for (const [k, w] of this.windows) if (nowMs - w.start >= this.rate.windowMs) this.windows.delete(k);
    // Insertion order is window order: drop the oldest half when every window is still running.
    if (this.windows.size >= TRACKED_MAX) for (const k of [...this.windows.keys()].slice(0, TRACKED_MAX / 2)) this.windows.delete(k);
  }
}

const limiter = new CheckinRateLimiter();

/**
 * Answer one check-in request: `segments` is the path after `/api/v1/checkins/` (`[token]` or
 * `[token, suffix]`). 200 `{"outcome": <the run's outcome now>}`; 404 `NOT_FOUND_BODY`; 405 for other
 * methods; 413 for a body over 10 KiB; 429 over the token's rate.
 */
export async function handleCheckin(
  req: Request,
  segments: string[],
  rt: Pick<Runtime, 'db' | 'engine' | 'checkinKey'> = runtime(),
  rate: CheckinRateLimiter = limiter,
  now: Date = new Date(),
): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'POST') {
    return new Response(JSON.stringify({ error: { code: 'method_not_allowed', message: 'check-ins take POST or GET' } }), {
      status: 405,
      headers: { allow: 'GET, POST', 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const [token, suffix, ...rest] = segments;
  const checkin = rest.length === 0 && token ? checkinKindOf(suffix) : null;
  if (!checkin) return json(NOT_FOUND_BODY, 404);
  const waitMs = rate.take(token, now.getTime());
  if (waitMs > 0) {
    const res = json({ error: { code: 'rate_limited', message: `this check-in URL was used ${CHECKIN_RATE.limit} times in the last minute; try again later` } }, 429);
    res.headers.set('retry-after', String(Math.ceil(waitMs / 1000)));
    return res;
  }
  try {
    const message = req.method === 'POST' ? outcomeMessageOf(await readBodyBytes(req, CHECKIN_BODY_LIMIT_BYTES)) : null;
    const opts: CheckInOptions = { db: rt.db, engine: rt.engine, key: rt.checkinKey, token, checkin, message, now };
    const answer = await checkIn(opts);
    return answer ? json({ outcome: answer.outcome }) : json(NOT_FOUND_BODY, 404);
  } catch (e) {
    return errorResponse(e);
  }
}

import type { Backfill } from '@/lib/schedules/contract';

/** What the panel's own actions answered (`backfill_schedule`, `cancel_backfill`), by backfill id. */
export interface Answered {
  started: Record<string, Backfill>;
  cancelled: Record<string, Backfill>;
}

/**
 * The list the panel shows: the page's `backfills` (newest first) with what this panel's own actions
 * answered (decision 417: what the operator just did shows at once, whenever the page's own refresh
 * lands).
 * - A backfill the panel started and the page does not list comes first, while it is newer than
 *   every listed row (one older than the page's newest row has left the page's latest few). Only the
 *   panel that can start one answers starts: each page of All backfills is its own panel and starts
 *   nothing.
 * - A backfill the panel cancelled that the page still lists as running shows as cancelled.
 * - Otherwise the page's row wins: it is the newer read (progress).
 * - `limit`: the most rows the page lists (its page size); a started one pushes the oldest off, as
 *   the page's next render will.
 */
export function withAnswered(backfills: Backfill[], answered: Answered, limit?: number): Backfill[] {
  const listed = new Set(backfills.map((b) => b.id));
  // The list is newest first; `created_at` is an ISO instant (UTC, fixed width): text order is time order.
  const newestListed = backfills[0]?.created_at ?? '';
  const started = Object.values(answered.started)
    .filter((b) => !listed.has(b.id) && b.created_at > newestListed)
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
  const shown = [...started, ...backfills.map((b) => cancelledRow(b, answered.cancelled[b.id]))];
  return limit !== undefined ? shown.slice(0, Math.max(limit, backfills.length)) : shown;
}

/** A listed row the panel cancelled: the cancel's answer while the page still says running, else the page's row. */
function cancelledRow(listed: Backfill, cancelled: Backfill | undefined): Backfill {
  return listed.state === 'running' && cancelled && cancelled.state !== 'running' ? cancelled : listed;
}

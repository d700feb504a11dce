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
 *   every listed row and `newest` says the list is the newest page (one older than the page's newest
 *   row has left the page's latest few; an older page never lists it).
 * - A backfill the panel cancelled that the page still lists as running shows as cancelled.
 * - Otherwise the page's row wins: it is the newer read (progress).
 * - `limit`: the most rows the page lists (its page size); a started one pushes the oldest off, as
 *   the page's next render will.
 */
export function withAnswered(backfills: Backfill[], answered: Answered, opts: { newest: boolean; limit?: number }): Backfill[] {
  const listed = new Set(backfills.map((b) => b.id));
  // `created_at` is an ISO instant (UTC, fixed width): text order is time order.
  const newestListed = backfills.reduce((m, b) => (b.created_at > m ? b.created_at : m), '');
  const started = opts.newest
    ? Object.values(answered.started)
        .filter((b) => !listed.has(b.id) && b.created_at > newestListed)
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    : [];
  const shown = [...started, ...backfills.map((b) => (b.state === 'running' && answered.cancelled[b.id] && answered.cancelled[b.id].state !== 'running' ? answered.cancelled[b.id] : b))];
  return opts.limit !== undefined ? shown.slice(0, Math.max(opts.limit, backfills.length)) : shown;
}

import type { Backfill } from '@/lib/schedules/contract';

/**
 * The list the panel shows: the page's `backfills` (newest first) with the backfills this panel's own
 * actions answered with (`answered`, by id). A started backfill newer than every row of the page comes
 * first (the page has not been rendered since; one the page does not list but is older than its newest
 * row has left the page's latest few, and stays off); a cancelled one the page still lists as running
 * shows as the action answered. Otherwise the page's row wins: it is the newer read (progress). Decision 417: what the operator just did shows at once,
 * whenever the page's own refresh lands.
 */
export function withAnswered(backfills: Backfill[], answered: Record<string, Backfill>): Backfill[] {
  const listed = new Set(backfills.map((b) => b.id));
  // `created_at` is an ISO instant (UTC, fixed width): text order is time order.
  const newest = backfills.reduce((m, b) => (b.created_at > m ? b.created_at : m), '');
  const started = Object.values(answered)
    .filter((b) => !listed.has(b.id) && b.created_at > newest)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return [...started, ...backfills.map((b) => (b.state === 'running' && answered[b.id] && answered[b.id].state !== 'running' ? answered[b.id] : b))];
}

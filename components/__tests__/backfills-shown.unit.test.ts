/**
 * The backfill panel's list (SPEC §18.1, decision 417): the page's rows with what the panel's own
 * actions answered, so a started or cancelled backfill shows at once.
 */
import { describe, expect, it } from 'vitest';
import type { Backfill } from '@/lib/schedules/contract';
import { withAnswered } from '../backfills-shown';

let n = 0;
function backfill(state: Backfill['state'], createdS: number, extra: Partial<Backfill> = {}): Backfill {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    schedule_id: '11111111-1111-4111-8111-111111111111',
    from: '2030-01-01T00:00:00.000Z',
    to: '2030-01-01T01:00:00.000Z',
    reprocess: 'missing',
    max_concurrency: 1,
    order: 'oldest_first',
    state,
    total: 60,
    fired: 0,
    succeeded: 0,
    failed: 0,
    in_flight: 0,
    created_by: { type: 'user', id: 'u' },
    created_at: new Date(Date.UTC(2030, 0, 2) + createdS * 1000).toISOString(),
    ...extra,
  } as Backfill;
}

describe('withAnswered', () => {
  it('is the page list itself when the panel answered nothing', () => {
    const page = [backfill('running', 2), backfill('completed', 1)];
    expect(withAnswered(page, {})).toEqual(page);
  });

  it('puts started backfills the page does not list yet first, newest first', () => {
    const old = backfill('completed', 1);
    const a = backfill('running', 5);
    const b = backfill('running', 9);
    expect(withAnswered([old], { [a.id]: a, [b.id]: b }).map((x) => x.id)).toEqual([b.id, a.id, old.id]);
  });

  it('leaves off a started backfill that has left the page (the page lists newer ones)', () => {
    const started = backfill('running', 1);
    const page = [backfill('running', 6), backfill('completed', 5)];
    expect(withAnswered(page, { [started.id]: started })).toEqual(page);
  });

  it('shows a cancel the page still lists as running, and otherwise the page row (its progress is newer)', () => {
    const listed = backfill('running', 3, { fired: 7 });
    const cancelled = { ...listed, state: 'cancelled' as const, fired: 5 };
    expect(withAnswered([listed], { [listed.id]: cancelled })).toEqual([cancelled]);
    const started = { ...listed, fired: 0 };
    expect(withAnswered([listed], { [listed.id]: started })).toEqual([listed]);
    const done = { ...listed, state: 'completed' as const, fired: 60 };
    expect(withAnswered([done], { [listed.id]: cancelled })).toEqual([done]);
  });
});

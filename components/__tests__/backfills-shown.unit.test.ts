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

const NONE = { started: {}, cancelled: {} };

describe('withAnswered', () => {
  it('is the page list itself when the panel answered nothing', () => {
    const page = [backfill('running', 2), backfill('completed', 1)];
    expect(withAnswered(page, NONE)).toEqual(page);
  });

  it('puts started backfills the page does not list yet first, newest first', () => {
    const old = backfill('completed', 1);
    const a = backfill('running', 5);
    const b = backfill('running', 9);
    expect(withAnswered([old], { started: { [a.id]: a, [b.id]: b }, cancelled: {} }).map((x) => x.id)).toEqual([b.id, a.id, old.id]);
  });

  it('keeps to the page size: a started one pushes the oldest off, as the page will', () => {
    const page = [5, 4, 3, 2, 1].map((s) => backfill('completed', s));
    const started = backfill('running', 9);
    const shown = withAnswered(page, { started: { [started.id]: started }, cancelled: {} }, 5);
    expect(shown.map((x) => x.id)).toEqual([started.id, ...page.slice(0, 4).map((x) => x.id)]);
    // A page shorter than its size grows by the started one.
    expect(withAnswered(page.slice(0, 3), { started: { [started.id]: started }, cancelled: {} }, 5)).toHaveLength(4);
  });

  it('leaves off a started backfill that has left the page (the page lists newer ones)', () => {
    const started = backfill('running', 1);
    const page = [backfill('running', 6), backfill('completed', 5)];
    expect(withAnswered(page, { started: { [started.id]: started }, cancelled: {} })).toEqual(page);
  });

  it('a cancel answers for a listed row only', () => {
    const listed = [backfill('completed', 2), backfill('completed', 1)];
    const cancelledElsewhere = { ...backfill('running', 8), state: 'cancelled' as const };
    expect(withAnswered(listed, { started: {}, cancelled: { [cancelledElsewhere.id]: cancelledElsewhere } })).toEqual(listed);
  });

  it('shows a cancel the page still lists as running, and otherwise the page row (its progress is newer)', () => {
    const listed = backfill('running', 3, { fired: 7 });
    const cancelled = { ...listed, state: 'cancelled' as const, fired: 5 };
    expect(withAnswered([listed], { started: {}, cancelled: { [listed.id]: cancelled } })).toEqual([cancelled]);
    const started = { ...listed, fired: 0 };
    expect(withAnswered([listed], { started: { [listed.id]: started }, cancelled: {} })).toEqual([listed]);
    const done = { ...listed, state: 'completed' as const, fired: 60 };
    expect(withAnswered([done], { started: {}, cancelled: { [listed.id]: cancelled } })).toEqual([done]);
  });
});

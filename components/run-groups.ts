/**
 * The history's occurrences (SPEC §8.1, §12.2): one page of runs (10, newest first, as
 * `list_executions` pages them) grouped by occurrence, each attempt its own run. Grouping stays
 * within the page: an occurrence whose attempts straddle a page boundary shows, on each page, the
 * attempts that page holds, and says where the others are (`earlierElsewhere`: attempts 1…k on older
 * pages; outcome `continued`: a later attempt on a newer page). Universal and pure.
 */
import type { ExhaustedReason, PendingRetry, Run } from '@/lib/schedules/contract';

/** How an occurrence ended, as far as this page and the pending attempts tell. */
export type OccurrenceOutcome =
  /** Its newest attempt succeeded. */
  | { kind: 'success'; attempt: number }
  /**
   * Its retries ended (SPEC §8.1 `exhausted`); `cancelled` makes no dead letter. Otherwise
   * `deadLetter` is the dead letter still listed for it (SPEC §12.3), or `dismissed` once it is not.
   */
  | { kind: 'exhausted'; reason: ExhaustedReason; attempt: number; deadLetter?: { id: string } | 'dismissed' }
  /** Its next attempt is stored and due at `dueAt` (SPEC §12.2). */
  | { kind: 'retrying'; attempt: number; dueAt: string }
  /** Its next attempt was made and is on a newer page. */
  | { kind: 'continued'; attempt: number }
  /** One failed attempt and no retry (a schedule without a retry policy, or a manual run). */
  | { kind: 'failed'; attempt: number };

export interface OccurrenceGroup {
  /** `schedule|<scheduled_for>` for an occurrence, `manual|<run id>` for a manual run (keyed apart, SPEC §8.1). */
  key: string;
  trigger: Run['trigger'];
  scheduledFor: string;
  /** This page's attempts of the occurrence, oldest first (by attempt number). */
  attempts: Run[];
  /** Attempts before the first one shown (1 … attempts[0].attempt − 1), on older pages or swept. */
  earlierElsewhere: number;
  outcome: OccurrenceOutcome;
}

/**
 * Groups `runs` (one page, newest first) by occurrence, in the order of each occurrence's newest
 * attempt on the page. `pending` are the schedule's pending attempts (read before the runs, so an
 * attempt made in between shows up among the runs rather than vanishing); a failed attempt with
 * `next_attempt_at` whose next attempt is pending is `retrying`, otherwise that attempt was made
 * (`continued` when it is not on this page). `listedDeadLetters` (exhausting run id → its dead
 * letter, lib/schedules `listedDeadLettersOfRuns`) tells an exhausted occurrence still in the
 * dead-letter list from a dismissed one; without it an exhausted occurrence says neither.
 */
export function groupRuns(runs: readonly Run[], pending: readonly PendingRetry[], listedDeadLetters?: ReadonlyMap<string, string>): OccurrenceGroup[] {
  const groups = new Map<string, Run[]>();
  for (const run of runs) {
    const key = run.trigger === 'schedule' ? `schedule|${run.scheduled_for}` : `manual|${run.id}`;
    const list = groups.get(key);
    if (list) list.push(run);
    else groups.set(key, [run]);
  }
  return [...groups].map(([key, list]) => {
    const attempts = [...list].sort((a, b) => a.attempt - b.attempt || Date.parse(a.created_at) - Date.parse(b.created_at));
    const last = attempts[attempts.length - 1];
    return { key, trigger: last.trigger, scheduledFor: last.scheduled_for, attempts, earlierElsewhere: attempts[0].attempt - 1, outcome: outcomeOf(last, pending, listedDeadLetters) };
  });
}

function outcomeOf(last: Run, pending: readonly PendingRetry[], listed: ReadonlyMap<string, string> | undefined): OccurrenceOutcome {
  if (last.status === 'success') return { kind: 'success', attempt: last.attempt };
  if (last.exhausted) {
    const outcome = { kind: 'exhausted', reason: last.exhausted, attempt: last.attempt } as const;
    if (last.exhausted === 'cancelled' || !listed) return outcome;
    const id = listed.get(last.id);
    return { ...outcome, deadLetter: id ? { id } : 'dismissed' };
  }
  if (last.next_attempt_at) {
    const next = pending.find((p) => p.scheduled_for === last.scheduled_for && p.attempt === last.attempt + 1);
    return next ? { kind: 'retrying', attempt: next.attempt, dueAt: next.due_at } : { kind: 'continued', attempt: last.attempt + 1 };
  }
  return { kind: 'failed', attempt: last.attempt };
}

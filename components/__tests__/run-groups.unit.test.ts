/**
 * The history's occurrences (SPEC §8.1, §12.2): one page of runs grouped by occurrence, in the order
 * of each occurrence's newest attempt, its attempts oldest first, and how it ended as far as the page
 * and the pending attempts tell, including an occurrence split across pages.
 */
import { describe, expect, it } from 'vitest';
import type { PendingRetry, Run } from '@/lib/schedules/contract';
import { groupRuns } from '../run-groups';

const T = Date.parse('2030-01-01T10:00:00Z');
const at = (s: number) => new Date(T + s * 1000).toISOString();
let n = 0;
type WorkflowRun = Extract<Run, { invocation_target_type: 'workflow' }>;
/** A run of the occurrence `scheduledS` seconds after T, recorded `recordedS` seconds after T. */
function run(scheduledS: number, attempt: number, recordedS: number, extra: Partial<WorkflowRun> = {}): WorkflowRun {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    schedule_id: '11111111-1111-4111-8111-111111111111',
    scheduled_for: at(scheduledS),
    trigger: 'schedule',
    created_at: at(recordedS),
    invocation_target_type: 'workflow',
    invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] },
    attempt,
    status: 'invocation_error',
    result: { error: 'session_not_open', message: 'session "nightly-batch" is closed' },
    ...extra,
  };
}
const newestFirst = (runs: Run[]) => [...runs].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));

describe('groupRuns', () => {
  it('groups the attempts of each occurrence, in the order of its newest attempt, attempts oldest first; manual runs stand alone', () => {
    const a1 = run(0, 1, 1, { next_attempt_at: at(61) });
    const b1 = run(60, 1, 60, { status: 'success', result: { execution_id: a1.id, revision_id: a1.id, session_id: a1.id, definition_id: a1.id } });
    const a2 = run(0, 2, 62, { exhausted: 'maximum_retry_attempts' });
    const manual = run(90, 1, 90, { trigger: 'manual', status: 'success', dead_letter_id: a1.id, result: b1.result });
    const groups = groupRuns(newestFirst([a1, b1, a2, manual]), []);
    expect(groups.map((g) => g.key)).toEqual([`manual|${manual.id}`, `schedule|${at(0)}`, `schedule|${at(60)}`]);
    expect(groups[1].attempts.map((r) => r.id)).toEqual([a1.id, a2.id]);
    expect(groups.map((g) => g.outcome)).toEqual([
      { kind: 'success', attempt: 1 },
      { kind: 'exhausted', reason: 'maximum_retry_attempts', attempt: 2 },
      { kind: 'success', attempt: 1 },
    ]);
    expect(groups.every((g) => g.earlierElsewhere === 0)).toBe(true);
  });

  it('§12.3 an exhausted occurrence names its dead letter while it is listed, and says it was dismissed once it is not', () => {
    const listed = run(0, 2, 62, { exhausted: 'maximum_retry_attempts' });
    const dismissed = run(60, 1, 120, { exhausted: 'maximum_event_age' });
    const cancelled = run(120, 1, 180, { exhausted: 'cancelled' });
    const letters = new Map([[listed.id, '22222222-2222-4222-8222-222222222222']]);
    expect(groupRuns(newestFirst([listed, dismissed, cancelled]), [], letters).map((g) => g.outcome)).toEqual([
      { kind: 'exhausted', reason: 'cancelled', attempt: 1 },
      { kind: 'exhausted', reason: 'maximum_event_age', attempt: 1, deadLetter: 'dismissed' },
      { kind: 'exhausted', reason: 'maximum_retry_attempts', attempt: 2, deadLetter: { id: '22222222-2222-4222-8222-222222222222' } },
    ]);
  });

  it('a failed attempt whose next attempt is pending is retrying, due when the pending row says', () => {
    const a1 = run(0, 1, 1, { next_attempt_at: at(61) });
    const pending: PendingRetry[] = [{ scheduled_for: at(0), attempt: 2, due_at: at(61) }];
    expect(groupRuns([a1], pending)[0].outcome).toEqual({ kind: 'retrying', attempt: 2, dueAt: at(61) });
    // A pending attempt of another occurrence, or another attempt number, is not this one's.
    expect(groupRuns([a1], [{ scheduled_for: at(60), attempt: 2, due_at: at(120) }])[0].outcome).toEqual({ kind: 'continued', attempt: 2 });
  });

  it('split across pages: a page holding attempts 3–4 says 2 are elsewhere; a page whose newest attempt was retried says it continues on a newer page', () => {
    const older = [run(0, 1, 1, { next_attempt_at: at(61) }), run(0, 2, 61, { next_attempt_at: at(181) })];
    const newer = [run(0, 3, 181, { next_attempt_at: at(421) }), run(0, 4, 421, { exhausted: 'maximum_event_age' })];
    const [onNewer] = groupRuns(newestFirst(newer), []);
    expect(onNewer.earlierElsewhere).toBe(2);
    expect(onNewer.attempts.map((r) => r.attempt)).toEqual([3, 4]);
    expect(onNewer.outcome).toEqual({ kind: 'exhausted', reason: 'maximum_event_age', attempt: 4 });
    const [onOlder] = groupRuns(newestFirst(older), []);
    expect(onOlder.earlierElsewhere).toBe(0);
    expect(onOlder.outcome).toEqual({ kind: 'continued', attempt: 3 });
  });

  it('one failed attempt without retry is failed; a cancelled retry is exhausted: cancelled', () => {
    expect(groupRuns([run(0, 1, 1)], [])[0].outcome).toEqual({ kind: 'failed', attempt: 1 });
    expect(groupRuns([run(0, 1, 1, { exhausted: 'cancelled' })], [])[0].outcome).toEqual({ kind: 'exhausted', reason: 'cancelled', attempt: 1 });
  });
});

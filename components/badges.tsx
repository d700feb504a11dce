import type { OverdueReason, RunOutcomeState, RunStatus, ScheduleState } from '@/lib/schedules/contract';

/** A run status badge whose text is exactly the status (SPEC §8.1). */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  const tone = status === 'success' ? 'ok' : status === 'limit_exceeded' ? 'warn' : status === 'skipped' ? 'muted' : 'error';
  return <span className={`badge badge-${tone}`}>{status}</span>;
}

/** How the work a run started ended (SPEC §16.1): `pending`, `running`, `succeeded`, `failed`, `timed_out`. */
export function OutcomeBadge({ outcome }: { outcome: RunOutcomeState }) {
  const tone = outcome === 'succeeded' ? 'ok-outline' : outcome === 'pending' || outcome === 'running' ? 'info-outline' : 'error';
  return <span className={`badge badge-${tone}`}>{outcome.replace('_', ' ')}</span>;
}

/** `active` / `completed` (SPEC §5.3). */
export function StateBadge({ state }: { state: ScheduleState }) {
  return <span className={`badge ${state === 'active' ? 'badge-info' : 'badge-muted'}`}>{state}</span>;
}

/**
 * `Enabled` / `Disabled`. A completed schedule fires no more whatever its flag (SPEC §5.3), so its
 * flag is shown muted, never as the green "Enabled" of a schedule that fires.
 */
export function EnabledBadge({ enabled, state }: { enabled: boolean; state: ScheduleState }) {
  const completed = state === 'completed';
  return (
    <span className={`badge ${enabled && !completed ? 'badge-ok-outline' : 'badge-muted'}`} title={completed ? 'Completed: it fires no more, whatever this flag says' : undefined}>
      {enabled ? 'Enabled' : 'Disabled'}
    </span>
  );
}

/** A pending next fire that is already past (`overdueReason` in lib/schedules): why, in the title. */
export function OverdueBadge({ why }: { why: OverdueReason }) {
  const title = why === 'no_worker' ? 'Due and not fired: no worker is alive, so nothing fires it until one starts.' : 'Due and not fired yet: the workers are behind.';
  return (
    <span className="badge badge-warn badge-overdue" title={title}>
      overdue{why === 'no_worker' ? ': no worker' : ''}
    </span>
  );
}

import type { RunStatus, ScheduleState } from '@/lib/schedules/contract';

/** A run status badge whose text is exactly the status (SPEC §8.1). */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  const tone = status === 'success' ? 'ok' : status === 'limit_exceeded' ? 'warn' : 'error';
  return <span className={`badge badge-${tone}`}>{status}</span>;
}

/** `active` / `completed` (SPEC §5.3). */
export function StateBadge({ state }: { state: ScheduleState }) {
  return <span className={`badge ${state === 'active' ? 'badge-info' : 'badge-muted'}`}>{state}</span>;
}

/** `Enabled` / `Disabled`. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <span className={`badge ${enabled ? 'badge-ok-outline' : 'badge-muted'}`}>{enabled ? 'Enabled' : 'Disabled'}</span>;
}

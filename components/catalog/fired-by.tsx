import Link from 'next/link';
import type { ReactNode } from 'react';
import type { ExecutionJson } from '@/lib/workflows/contract';

/**
 * The schedule and run that fired an execution: the schedule linked to its page (by alias when it has
 * one; `prefix` goes before it, e.g. "schedule "), or its bare id when the schedule is gone or not
 * readable; then the run id. `none` when a person or a script created the execution.
 */
export function FiredBy({ execution, origin, prefix = '', none }: { execution: ExecutionJson; origin: { revisionId: string; alias?: string } | undefined; prefix?: string; none: ReactNode }) {
  if (!execution.schedule_id) return <>{none}</>;
  return (
    <>
      {origin ? (
        <Link href={`/schedulers/${origin.revisionId}/schedules/${execution.schedule_id}`}>
          {prefix}
          {origin.alias ?? execution.schedule_id}
        </Link>
      ) : (
        <span className="mono">
          {prefix}
          {execution.schedule_id}
        </span>
      )}
      {execution.run_id ? <div className="mono muted small">run {execution.run_id}</div> : null}
    </>
  );
}

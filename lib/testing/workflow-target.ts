import type { InvocationTarget, TargetFields } from '../schedules/contract';

/** The workflow target of a schedule, run or dead letter; throws (failing the test) for an `http` or `aws` one. */
export function workflowTargetOf(s: TargetFields): InvocationTarget {
  if (s.invocation_target_type !== 'workflow') throw new Error(`expected a workflow target, got ${s.invocation_target_type}`);
  return s.invocation_target;
}

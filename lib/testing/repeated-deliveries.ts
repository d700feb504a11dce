/**
 * Tests only: the at-least-once rule of after-commit delivery (SPEC §13, docs/decisions.md 111),
 * checked over a run history. Each run's occurrence id (its delivery id) may reach the target once,
 * or twice when a crash interrupted the first send — and then the run must say so
 * (`repeated_delivery` or `delivery_interrupted`). Never three times. Never zero, but for a run
 * recorded `delivery_interrupted`: each send is counted before its request leaves, so a process
 * killed twice between a count and its request has sent nothing, and the run says only that the
 * receiver may have it.
 */
import { occurrenceId, type FireTrigger } from '../targets';

/** A run as the check reads it: the occurrence it belongs to and its stored result. */
export interface RunForDeliveries {
  scheduleId: string;
  scheduledFor: Date;
  result: unknown;
  /** Its stored trigger (`schedule` when absent; a backfill's names it, SPEC §18.1). */
  trigger?: string;
}

/**
 * `runs` against `deliveryIds` (the id of every send the target received, one entry per send):
 * `problems` lists each run that breaks the rule, in words; `repeated` counts the runs delivered twice;
 * `interrupted` the runs recorded `delivery_interrupted` (sent at most twice, never a third time).
 */
export function repeatedDeliveries(runs: RunForDeliveries[], deliveryIds: Iterable<string>): { problems: string[]; repeated: number; interrupted: number } {
  const sends = new Map<string, number>();
  for (const id of deliveryIds) sends.set(id, (sends.get(id) ?? 0) + 1);
  const problems: string[] = [];
  let repeated = 0;
  let interrupted = 0;
  for (const r of runs) {
    const id = occurrenceId({ scheduleId: r.scheduleId, scheduledFor: r.scheduledFor, trigger: (r.trigger ?? 'schedule') as FireTrigger });
    const n = sends.get(id) ?? 0;
    const result = (r.result ?? {}) as { repeated_delivery?: boolean; error?: string };
    const saysInterrupted = result.error === 'delivery_interrupted';
    const saysRepeated = result.repeated_delivery === true || saysInterrupted;
    if (n > 2) problems.push(`${r.scheduleId}: delivered ${n} times`);
    if (n === 2 && !saysRepeated) problems.push(`${r.scheduleId}: delivered twice, the run does not say so`);
    if (n === 0 && !saysInterrupted) problems.push(`${r.scheduleId}: never delivered (${JSON.stringify(r.result)})`);
    if (n === 2) repeated++;
    if (saysInterrupted) interrupted++;
  }
  return { problems, repeated, interrupted };
}

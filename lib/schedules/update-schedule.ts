import type { Actor } from '../auth';
import type { Limits } from '../config';
import type { Db } from '../db';
import { DomainError } from '../errors';
import { requireSchedulerRole } from './access';
import { AwsTargetSchema, firstIssueError, HttpTargetSchema, ScheduleUpdateInput, type ExternalTarget, type Schedule } from './contract';
import { getScheduleRow } from './find-schedule';
import { checkSchedule, parseScheduleInput, parseTimingInput, type TimingRules } from './save-schedule';
import { toSchedule } from './serialize';

export interface UpdateScheduleOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** Id or alias. */
  scheduleRef: string;
  /** Any subset of the writable fields (unparsed). Only fields sent change. */
  input: unknown;
  limits: Limits;
  now: Date;
  /** Replace the target with an `http` or `aws` one (EventBridge API, SPEC §14); `input` then has no `invocation_target`. */
  external?: ExternalTarget;
  /** Save-time rules of time (save-schedule.ts `TimingRules`). Default `product`. */
  timing?: TimingRules;
  /** Replace what the EventBridge API stores beside the product's fields (the `eventbridge` column). */
  eventbridge?: object;
}

/**
 * `update_schedule` (SPEC §3.1): merge the fields sent onto the stored schedule, validate the result
 * as a whole, recompute `next_fire_at`. Switching `repeat` needs the matching field in the same
 * request; the other field is dropped. The target is checked again only when `invocation_target` is sent.
 * Throws `404 schedule_not_found`, `409 schedule_completed`, and every code of SPEC §5.2.
 */
export async function updateSchedule(opts: UpdateScheduleOptions): Promise<Schedule> {
  const { db, actor, revision, limits, now } = opts;
  const parsed = ScheduleUpdateInput.safeParse(opts.input);
  if (!parsed.success) {
    const e = firstIssueError(parsed.error);
    throw new DomainError(e.code, e.message, { path: e.path });
  }
  const patch = parsed.data;
  return db.$transaction(async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const row = await getScheduleRow(tx, revision.id, opts.scheduleRef);
    if (row.state === 'completed') {
      throw new DomainError('schedule_completed', 'this schedule is completed and read-only; it can be read and deleted');
    }
    const current = toSchedule(row);
    if (patch.repeat !== undefined && patch.repeat !== current.repeat) {
      const needed = patch.repeat === 'one_time' ? 'invocation_time' : 'cron_expression';
      if (patch[needed] === undefined) {
        throw new DomainError('invalid_request_body', `switching repeat to "${patch.repeat}" needs ${needed} in the same request`, { path: needed });
      }
    }
    const repeat = patch.repeat ?? current.repeat;
    const merged: Record<string, unknown> = {
      alias: current.alias,
      description: current.description,
      repeat,
      timezone: current.timezone,
      start_date: current.start_date,
      end_date: current.end_date,
      enabled: current.enabled,
      invocation_target: current.invocation_target,
      ...(repeat === current.repeat
        ? current.repeat === 'one_time'
          ? { invocation_time: current.invocation_time }
          : { cron_expression: current.cron_expression }
        : {}),
      ...patch,
    };
    for (const k of Object.keys(merged)) if (merged[k] === undefined || merged[k] === null) delete merged[k];
    // The target: a new workflow target (sent), a new external one (EventBridge API), or the stored one.
    const external = opts.external ?? (patch.invocation_target === undefined ? storedExternal(row) : undefined);
    if (external) delete merged.invocation_target;
    const input = external ? parseTimingInput(merged) : parseScheduleInput(merged);
    if (input.alias != null && input.alias !== current.alias) {
      const clash = await tx.schedule.findFirst({ where: { revisionId: revision.id, alias: input.alias, NOT: { id: row.id } }, select: { id: true } });
      if (clash) throw new DomainError('alias_taken', `alias "${input.alias}" is taken by another schedule in this scheduler`, { path: 'alias' });
    }
    const fields = await checkSchedule({ db: tx, actor, input, external, limits, now, checkTarget: patch.invocation_target !== undefined, timing: opts.timing });
    // Re-enabling fires from the next occurrence after now (SPEC §5.1: no catch-up); checkSchedule
    // computes next_fire_at from `now`, so a disabled period's occurrences are never fired.
    const updated = await tx.schedule.update({
      where: { id: row.id },
      data: {
        ...fields,
        // A one-time schedule saved already missed (EventBridge timing) counts that occurrence.
        skippedOccurrences: fields.skippedOccurrences ? { increment: fields.skippedOccurrences } : undefined,
        ...(opts.eventbridge ? { eventbridge: opts.eventbridge } : staleEventBridgeFields(row.eventbridge, patch, current)),
        updatedAt: now,
      },
    });
    return toSchedule(updated);
  });
}

/**
 * The EventBridge API's copies of fields (SPEC §14) that a save made elsewhere changes: its full
 * `description`, its `expression` as written, the `defaultEvent` origin of a target without Input,
 * and the `Arn` and `Input` of its raw `target` (its role, retry policy, dead letter and parameters
 * stay). They are dropped when the field's value changes, so that API answers from the product's
 * fields again. Returns the column's update, or nothing when nothing is stale.
 */
const EVENTBRIDGE_COPIES: Record<string, readonly string[]> = {
  target: ['invocation_target'],
  defaultEvent: ['invocation_target'],
  description: ['description'],
  expression: ['repeat', 'cron_expression', 'invocation_time'],
};

function staleEventBridgeFields(stored: unknown, patch: Record<string, unknown>, current: Schedule): { eventbridge?: object } {
  if (typeof stored !== 'object' || stored === null) return {};
  const before = current as unknown as Record<string, unknown>;
  const changedField = (f: string) => patch[f] !== undefined && JSON.stringify(patch[f] ?? null) !== JSON.stringify(before[f] ?? null);
  const kept: Record<string, unknown> = { ...(stored as Record<string, unknown>) };
  let changed = false;
  for (const [key, fields] of Object.entries(EVENTBRIDGE_COPIES)) {
    if (!(key in kept) || !fields.some(changedField)) continue;
    changed = true;
    if (key === 'target' && typeof kept.target === 'object' && kept.target !== null) {
      const policies = { ...(kept.target as Record<string, unknown>) };
      delete policies.Arn;
      delete policies.Input;
      kept.target = policies;
    } else delete kept[key];
  }
  return changed ? { eventbridge: kept } : {};
}

/** The stored `http` / `aws` target of a row, or undefined for a workflow target. */
function storedExternal(row: { invocationTargetType: string; invocationTarget: unknown }): ExternalTarget | undefined {
  if (row.invocationTargetType === 'http') return { type: 'http', target: HttpTargetSchema.parse(row.invocationTarget) };
  if (row.invocationTargetType === 'aws') return { type: 'aws', target: AwsTargetSchema.parse(row.invocationTarget) };
  return undefined;
}

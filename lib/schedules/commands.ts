/**
 * The scheduler commands of SPEC §3.1 for `"engine": "scheduler_blobhub"`. Each handler parses its
 * parameters with the contract schema, calls one domain function, and shapes the answer.
 */
import type { CommandContext, CommandHandler } from '../workflows';
import { loadConfig } from '../config';
import { DomainError } from '../errors';
import type { z } from 'zod';
import { firstIssueError, ListExecutionsParams, ListSchedulesParams, ScheduleIdParams, SetAllEnabledParams } from './contract';
import { createSchedule } from './create-schedule';
import { deleteSchedule } from './delete-schedule';
import { getSchedule, listSchedules } from './list-schedules';
import { listRuns } from './list-runs';
import { runSchedule } from './run-schedule';
import { setAllEnabled } from './set-all-enabled';
import { updateSchedule } from './update-schedule';
import { getSigningSecret } from './get-signing-secret';
import { rotateSigningSecret } from './rotate-signing-secret';
import { SigningSecretParams } from './signing-secrets';

function parse<S extends z.ZodType>(schema: S, params: unknown): z.infer<S> {
  const r = schema.safeParse(params);
  if (!r.success) {
    const e = firstIssueError(r.error);
    throw new DomainError(e.code, e.message, { path: e.path });
  }
  return r.data;
}

const base = (ctx: CommandContext) => ({ db: ctx.db, actor: ctx.actor, revision: ctx.revision });

export const schedulerCommands: Record<string, CommandHandler> = {
  async create_schedule(ctx) {
    return { schedule: await createSchedule({ ...base(ctx), input: ctx.params, limits: loadConfig().limits, now: ctx.now }) };
  },
  async get_schedule(ctx) {
    const p = parse(ScheduleIdParams, ctx.params);
    return { schedule: await getSchedule({ ...base(ctx), scheduleRef: p.schedule_id }) };
  },
  async update_schedule(ctx) {
    const { schedule_id, ...input } = ctx.params;
    if (typeof schedule_id !== 'string' || !schedule_id) {
      throw new DomainError('invalid_request_body', 'schedule_id is required', { path: 'schedule_id' });
    }
    return { schedule: await updateSchedule({ ...base(ctx), scheduleRef: schedule_id, input, limits: loadConfig().limits, now: ctx.now }) };
  },
  async delete_schedule(ctx) {
    const p = parse(ScheduleIdParams, ctx.params);
    await deleteSchedule({ ...base(ctx), scheduleRef: p.schedule_id });
    return {};
  },
  async list_schedules(ctx) {
    const p = parse(ListSchedulesParams, ctx.params);
    return listSchedules({ ...base(ctx), startScheduleId: p.start_schedule_id, state: p.state, enabled: p.enabled });
  },
  async list_executions(ctx) {
    const p = parse(ListExecutionsParams, ctx.params);
    return listRuns({ ...base(ctx), scheduleId: p.schedule_id, startExecutionId: p.start_execution_id, includeSchedule: p.include_schedule, status: p.status });
  },
  async run_schedule(ctx) {
    const p = parse(ScheduleIdParams, ctx.params);
    return { execution: await runSchedule({ ...base(ctx), scheduleRef: p.schedule_id, now: ctx.now }) };
  },
  async set_all_enabled(ctx) {
    const p = parse(SetAllEnabledParams, ctx.params);
    return setAllEnabled({ ...base(ctx), enabled: p.enabled, now: ctx.now });
  },
  /** Admins: the webhook signing secret, shown once (SPEC §13.1). */
  async get_signing_secret(ctx) {
    parse(SigningSecretParams, ctx.params);
    return { signing_secret: await getSigningSecret({ ...base(ctx), now: ctx.now }) };
  },
  /** Admins: a new webhook signing secret, shown in the answer; the old one signs 24 h more. */
  async rotate_signing_secret(ctx) {
    parse(SigningSecretParams, ctx.params);
    return { signing_secret: await rotateSigningSecret({ ...base(ctx), now: ctx.now }) };
  },
};

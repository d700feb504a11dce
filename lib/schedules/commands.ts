/**
 * The scheduler commands of SPEC §3.1 for `"engine": "scheduler_blobhub"`. Each handler parses its
 * parameters with the contract schema, calls one domain function, and shapes the answer.
 */
import type { CommandContext, CommandTable, DirectRead } from '../workflows';
import { DomainError, parseOrRefuse } from '../errors';
import { dismissDeadLetter, listDeadLetters, replayDeadLetter } from './runs/dead-letters';
import { listActivity } from './activity';
import { backfillSchedule, cancelBackfill, dryRunBackfill, getBackfill, listBackfills } from './runs/backfills';
import { createAlertRule, deleteAlertRule, listAlertRules, listAlerts, updateAlertRule } from './alerts/rules';
import { AlertRuleIdParams, CreateAlertRuleParams, ListAlertRulesParams, ListAlertsParams, UpdateAlertRuleParams } from './alerts/contract';
import {
  BackfillIdParams,
  BackfillScheduleParams,
  ListBackfillsParams,
  ClientTokenParams,
  DeadLetterIdParams,
  DeleteScheduleParams,
  ExpectedVersionParams,
  ListActivityParams,
  DryRunParams,
  ListDeadLettersParams,
  ListExecutionsParams,
  ListSchedulesParams,
  SCHEDULER_COMMANDS,
  ScheduleIdParams,
  RunScheduleParams,
  SetAllEnabledParams,
  SetMetricsPerScheduleParams,
  SigningSecretParams,
} from './contract';
import { createSchedule, dryRunCreateSchedule } from './save/create-schedule';
import { deleteSchedule } from './save/delete-schedule';
import { getSchedule, getScheduleIfReadable, listSchedules } from './read/list-schedules';
import { listRuns } from './read/list-runs';
import { runSchedule } from './runs/run-schedule';
import type { Engine } from '../engine';
import type { DeliveryDeps } from '../targets';
import { setAllEnabled } from './save/set-all-enabled';
import { setMetricsPerSchedule } from './save/set-metrics-per-schedule';
import { dryRunUpdateSchedule, updateSchedule } from './save/update-schedule';
import { getSigningSecret } from './signing-secrets/get-signing-secret';
import { rotateSigningSecret } from './signing-secrets/rotate-signing-secret';

const base = (ctx: CommandContext) => ({ db: ctx.db, actor: ctx.actor, revision: ctx.revision });

/**
 * The process's delivery pool and fire engine (with its facades), which the web edge adds to the
 * context (lib/api/revision-command.ts) for manual fires (SPEC §3.1, §12.3, §13).
 */
const fireDepsOf = (ctx: CommandContext): { delivery?: DeliveryDeps; engine?: Engine } => {
  const { delivery, engine } = ctx as CommandContext & { delivery?: DeliveryDeps; engine?: Engine };
  return { delivery, engine };
};

/** `dry_run` of a save command (`DryRunParams`), validated on its own; the rest of the body is the save's. */
function isDryRun(dryRun: unknown): boolean {
  return parseOrRefuse(DryRunParams, dryRun === undefined ? {} : { dry_run: dryRun }).dry_run === true;
}

/**
 * The scheduler commands the router may answer before it resolves the revision (docs/decisions.md
 * 439): `get_schedule`, the hot read, in one statement instead of two. Null sends the request down
 * `schedulerCommands`' path, so its parameters and refusals are those of the handler below.
 */
export const schedulerDirectReads: Partial<Record<keyof typeof SCHEDULER_COMMANDS, DirectRead>> = {
  async get_schedule({ db, actor, revisionId, params }) {
    const p = ScheduleIdParams.safeParse(params);
    if (!p.success) return null;
    const schedule = await getScheduleIfReadable({ db, actor, revisionId, scheduleRef: p.data.schedule_id });
    return schedule ? { schedule } : null;
  },
};

/** The handlers of `SCHEDULER_COMMANDS`, one per command, each answering its contract's shape. */
export const schedulerCommands: CommandTable<typeof SCHEDULER_COMMANDS> = {
  async create_schedule(ctx) {
    const { dry_run, client_token, ...input } = ctx.params;
    const opts = { ...base(ctx), input, limits: ctx.limits, httpAllowList: ctx.httpAllowList, now: ctx.now };
    if (isDryRun(dry_run)) return dryRunCreateSchedule(opts);
    const { client_token: clientToken } = parseOrRefuse(ClientTokenParams, client_token === undefined ? {} : { client_token });
    return { schedule: await createSchedule({ ...opts, clientToken }) };
  },
  async get_schedule(ctx) {
    const p = parseOrRefuse(ScheduleIdParams, ctx.params);
    return { schedule: await getSchedule({ ...base(ctx), scheduleRef: p.schedule_id, directReadMissed: ctx.directReadMissed }) };
  },
  async update_schedule(ctx) {
    const { schedule_id, dry_run, expected_version, ...input } = ctx.params;
    if (typeof schedule_id !== 'string' || !schedule_id) {
      throw new DomainError('invalid_request_body', 'schedule_id is required', { path: 'schedule_id' });
    }
    const { expected_version: expectedVersion } = parseOrRefuse(ExpectedVersionParams, expected_version === undefined ? {} : { expected_version });
    const opts = { ...base(ctx), scheduleRef: schedule_id, input, limits: ctx.limits, httpAllowList: ctx.httpAllowList, now: ctx.now, expectedVersion };
    if (isDryRun(dry_run)) return dryRunUpdateSchedule(opts);
    return { schedule: await updateSchedule(opts) };
  },
  async delete_schedule(ctx) {
    const p = parseOrRefuse(DeleteScheduleParams, ctx.params);
    await deleteSchedule({ ...base(ctx), scheduleRef: p.schedule_id, now: ctx.now, expectedVersion: p.expected_version });
    return {};
  },
  async list_schedules(ctx) {
    const p = parseOrRefuse(ListSchedulesParams, ctx.params);
    return listSchedules({ ...base(ctx), startScheduleId: p.start_schedule_id, state: p.state, enabled: p.enabled });
  },
  async list_executions(ctx) {
    const p = parseOrRefuse(ListExecutionsParams, ctx.params);
    return listRuns({ ...base(ctx), scheduleId: p.schedule_id, startExecutionId: p.start_execution_id, includeSchedule: p.include_schedule, status: p.status });
  },
  async run_schedule(ctx) {
    const p = parseOrRefuse(RunScheduleParams, ctx.params);
    return { execution: await runSchedule({ ...base(ctx), scheduleRef: p.schedule_id, now: ctx.now, limits: ctx.limits, overlap: p.overlap, ...fireDepsOf(ctx) }) };
  },
  async set_all_enabled(ctx) {
    const p = parseOrRefuse(SetAllEnabledParams, ctx.params);
    return setAllEnabled({ ...base(ctx), enabled: p.enabled, now: ctx.now });
  },
  async set_metrics_per_schedule(ctx) {
    const p = parseOrRefuse(SetMetricsPerScheduleParams, ctx.params);
    return setMetricsPerSchedule({ ...base(ctx), enabled: p.enabled, now: ctx.now });
  },
  async list_dead_letters(ctx) {
    const p = parseOrRefuse(ListDeadLettersParams, ctx.params);
    return listDeadLetters({ ...base(ctx), startDeadLetterId: p.start_dead_letter_id });
  },
  async replay_dead_letter(ctx) {
    const p = parseOrRefuse(DeadLetterIdParams, ctx.params);
    return replayDeadLetter({ ...base(ctx), deadLetterRef: p.dead_letter_id, limits: ctx.limits, now: ctx.now, ...fireDepsOf(ctx) });
  },
  async dismiss_dead_letter(ctx) {
    const p = parseOrRefuse(DeadLetterIdParams, ctx.params);
    return dismissDeadLetter({ ...base(ctx), deadLetterRef: p.dead_letter_id, now: ctx.now });
  },
  async list_activity(ctx) {
    const p = parseOrRefuse(ListActivityParams, ctx.params);
    return listActivity({ ...base(ctx), scheduleRef: p.schedule_id, startActivityId: p.start_activity_id });
  },
  /** SPEC §18.1: a backfill of a past range (or its dry run: the count and the first instants). */
  async backfill_schedule(ctx) {
    const p = parseOrRefuse(BackfillScheduleParams, ctx.params);
    const opts = {
      ...base(ctx),
      scheduleRef: p.schedule_id,
      from: p.from,
      to: p.to,
      reprocess: p.reprocess,
      maxConcurrency: p.max_concurrency,
      order: p.order,
      now: ctx.now,
      clientToken: p.client_token,
    };
    if (p.dry_run) return dryRunBackfill(opts);
    return { backfill: await backfillSchedule(opts) };
  },
  async list_backfills(ctx) {
    const p = parseOrRefuse(ListBackfillsParams, ctx.params);
    return listBackfills({ ...base(ctx), scheduleRef: p.schedule_id, startBackfillId: p.start_backfill_id });
  },
  async get_backfill(ctx) {
    const p = parseOrRefuse(BackfillIdParams, ctx.params);
    return { backfill: await getBackfill({ ...base(ctx), backfillRef: p.backfill_id }) };
  },
  async cancel_backfill(ctx) {
    const p = parseOrRefuse(BackfillIdParams, ctx.params);
    return { backfill: await cancelBackfill({ ...base(ctx), backfillRef: p.backfill_id, now: ctx.now }) };
  },
  /** Admins: the webhook signing secret, shown once (SPEC §13.1). */
  async get_signing_secret(ctx) {
    parseOrRefuse(SigningSecretParams, ctx.params);
    return { signing_secret: await getSigningSecret({ ...base(ctx), now: ctx.now }) };
  },
  /** Admins: a new webhook signing secret, shown in the answer; the old one signs 24 h more. */
  async rotate_signing_secret(ctx) {
    parseOrRefuse(SigningSecretParams, ctx.params);
    return { signing_secret: await rotateSigningSecret({ ...base(ctx), now: ctx.now }) };
  },
  async list_alert_rules(ctx) {
    const p = parseOrRefuse(ListAlertRulesParams, ctx.params);
    return { rules: await listAlertRules({ ...base(ctx), scheduleRef: p.schedule_id }) };
  },
  async create_alert_rule(ctx) {
    return { rule: await createAlertRule({ ...base(ctx), input: parseOrRefuse(CreateAlertRuleParams, ctx.params), now: ctx.now }) };
  },
  async update_alert_rule(ctx) {
    return { rule: await updateAlertRule({ ...base(ctx), input: parseOrRefuse(UpdateAlertRuleParams, ctx.params), now: ctx.now }) };
  },
  async delete_alert_rule(ctx) {
    await deleteAlertRule({ ...base(ctx), ruleRef: parseOrRefuse(AlertRuleIdParams, ctx.params).rule_id });
    return {};
  },
  async list_alerts(ctx) {
    const p = parseOrRefuse(ListAlertsParams, ctx.params);
    return listAlerts({ ...base(ctx), startAlertId: p.start_alert_id });
  },
};

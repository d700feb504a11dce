/** Public entry of the schedules domain (STYLE §5). */
export * from './contract';
export { createSchedule } from './save/create-schedule';
export { updateSchedule } from './save/update-schedule';
export { deleteSchedule } from './save/delete-schedule';
export { describeScheduleDeletion, describeSchedulerDeletion, type ScheduleDeletion, type SchedulerDeletion } from './save/describe-schedule-deletion';
export { getSchedule, listSchedules, SCHEDULES_PAGE_SIZE } from './read/list-schedules';
export { browseSchedules, GRID_PAGE_SIZE, SCHEDULE_SORT_KEYS, type ScheduleSortKey, type SchedulePage } from './read/browse-schedules';
export { listRuns, RUNS_PAGE_SIZE } from './read/list-runs';
export { setAllEnabled } from './save/set-all-enabled';
export { setMetricsPerSchedule } from './save/set-metrics-per-schedule';
export { listDeadLetters, countDeadLetters, listedDeadLettersOfRuns, toDeadLetter, DEAD_LETTERS_PAGE_SIZE } from './runs/dead-letters';
// Run now, replay and dismiss, each with its activity entry (SPEC §15): every caller records who did it.
export { runSchedule } from './runs/run-schedule';
export { backfillSchedule, cancelBackfill, dryRunBackfill, getBackfill, listBackfills, BACKFILLS_PAGE_SIZE, type BackfillScheduleOptions } from './runs/backfills';
export { dryRunResumeWithCatchUp, resumeWithCatchUp, type ResumeWithCatchUpOptions } from './runs/resume-with-catch-up';
export { checkIn, checkinKindOf, outcomeMessageOf, type CheckInOptions } from './runs/check-in';
export { replayDeadLetter, dismissDeadLetter } from './runs/dead-letters';
export { listActivity, recordActivity, recordActivities, recordAutomaticPauses, toActivityEntry, ACTIVITY_PAGE_SIZE, type ActivityBy, type ActivityInput } from './activity';
// The fire engine as the product composes it (SPEC §8, §12, §13): lib/engine with the domain's facts and activity log.
export { schedulerEngine, SCHEDULER_FACTS, fireDue, fireBackfills, fireOccurrence, fireRetry, deliverEach, recordDelivered, deliverAndRecord, sendDueDeadLetters } from './engine';
export {
  afterFailedAttempt,
  cancelUndeliverable,
  checkinUrls,
  checkinKey,
  checkinToken,
  runIdOfCheckinToken,
  CHECKIN_PATH,
  type CheckinUrls,
  createDeliveryDeps,
  findEarliestDue,
  listDueOccurrences,
  listDueRetries,
  renewInFlightLeases,
  LEASE_RENEW_MS,
  type AttemptVerdict,
  type CheckinAnswer,
  type CheckinKind,
  type DeliveredAttempt,
  type Engine,
  type EngineOverrides,
  type FireOutcome,
  type SkipReason,
  type InFlightAttempt,
  type RetryPolicy,
} from '../engine';
export { NO_ALLOWED_HOSTS, type DeliveryDeps } from '../targets';
export {
  RetentionSweep,
  retentionCutoff,
  SWEEP_TARGET_MS,
  SWEEP_FIRST_BATCH,
  SWEEP_MIN_BATCH,
  SWEEP_MAX_BATCH,
  SWEEP_VACUUM_AT_PAGES,
  type RetentionSweepOptions,
  type SweepBatch,
  type SweepPhase,
} from './operations/retention-sweep';
export { schedulerCommands, schedulerDirectReads } from './commands';
export { toSchedule, toRun } from './read/serialize';
export { namedError } from './read/find-schedule';
export { listSchedulers, getSchedulerByRevision, type SchedulerSummary } from './read/list-schedulers';
export { writeStorageProbe } from './operations/storage-probe';
export { collectFireMetrics, METRICS_WINDOW_SECONDS, type FireMetrics } from './operations/fire-metrics';
export {
  recordHeartbeat,
  markWorkerStopped,
  workerLiveness,
  isWorkerAlive,
  overdueReason,
  OVERDUE_GRACE_SECONDS,
  DEAD_AFTER_INTERVALS,
  PRUNE_AFTER_INTERVALS,
  type RecordHeartbeatOptions,
  type WorkerLiveness,
} from './operations/worker-heartbeats';
export { targetOptions, lastRunStatuses, enabledCounts, pendingRetries } from './read/target-options';
export { contextPreviewFacts } from './read/context-preview';
export { inProgressRun, type InProgress } from './read/in-progress';
export {
  revisionChangeImpacts,
  sessionDeleteImpacts,
  blobDeleteImpact,
  NO_IMPACT,
  type AffectedSchedule,
  type ImpactOutcome,
  type RevisionChangeImpact,
  type ScheduleImpact,
} from './read/catalog-impact';
export { getSigningSecret } from './signing-secrets/get-signing-secret';
export { rotateSigningSecret } from './signing-secrets/rotate-signing-secret';
export { signingSecretsForDelivery, ensureSigningSecret, SIGNING_SECRET_OVERLAP_MS, type SigningSecretOptions } from './signing-secrets/signing-secrets';
export { findSigningSecret } from './signing-secrets/find-signing-secret';
// SPEC §17: alert channels, rules, the alert log, and the worker's sends and minute checks.
export {
  listAlertChannels,
  getAlertChannel,
  createAlertChannel,
  updateAlertChannel,
  deleteAlertChannel,
  alertChannelUses,
  type ChannelRuleUse,
  testAlertChannel,
  listAlertRules,
  createAlertRule,
  updateAlertRule,
  deleteAlertRule,
  listAlerts,
  failingAlertChannels,
  alertChannelChoices,
  anyAlertChannelFailing,
  checkSilence,
  realertIncidents,
  sweepAlerts,
  endAlertingOfDeletedSchedules,
  sendDueAlerts,
  ALERT_SENDS_PER_CHANNEL,
  renderAlert,
  alertRetryDelayMs,
  ALERTS_PAGE_SIZE,
  type AlertDeliveryDeps,
  type AlertSendReport,
  type ChannelSaveOptions,
} from './alerts';

// What facades build on (SPEC §14): remembered client tokens, the save rules they pass, the time engine's expressions.
export { findClientToken, rememberClientToken, requestHash } from './save/client-tokens';
export { scheduleArn } from '../targets';
export { type AlsoInTransaction, type DestinationOptions, type SaveRules } from './save/save-schedule';
export { parseScheduleExpression, ScheduleExpressionError, type ScheduleExpression } from '../cron';

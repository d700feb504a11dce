/** Public entry of the schedules domain (STYLE §5). */
export * from './contract';
export { createSchedule } from './create-schedule';
export { updateSchedule } from './update-schedule';
export { deleteSchedule } from './delete-schedule';
export { describeScheduleDeletion, describeSchedulerDeletion, type ScheduleDeletion, type SchedulerDeletion } from './describe-schedule-deletion';
export { getSchedule, listSchedules, SCHEDULES_PAGE_SIZE } from './list-schedules';
export { browseSchedules, GRID_PAGE_SIZE, SCHEDULE_SORT_KEYS, type ScheduleSortKey, type SchedulePage } from './browse-schedules';
export { listRuns, RUNS_PAGE_SIZE } from './list-runs';
export { setAllEnabled } from './set-all-enabled';
export { listDeadLetters, countDeadLetters, listedDeadLettersOfRuns, toDeadLetter, DEAD_LETTERS_PAGE_SIZE } from './dead-letters';
// Run now, replay and dismiss, each with its activity entry (SPEC §15): every caller records who did it.
export { runSchedule } from './run-schedule';
export { replayDeadLetter, dismissDeadLetter } from './dead-letters';
export { listActivity, recordActivity, recordActivities, recordAutomaticPauses, toActivityEntry, ACTIVITY_PAGE_SIZE, type ActivityBy, type ActivityInput } from './activity';
export { afterFailedAttempt, type RetryPolicy, type AttemptVerdict } from './attempts';
export { fireDue, fireOccurrence, fireRetry, listDueOccurrences, listDueRetries, findEarliestNextFire, recordDelivered, deliverAndRecord, type FireOutcome } from './fire-occurrence';
export {
  deliverEach,
  createDeliveryDeps,
  renewInFlightLeases,
  LEASE_RENEW_MS,
  isExternalTarget,
  type DeliveredAttempt,
  type DeliveryDeps,
  type InFlightAttempt,
} from './deliver-attempts';
export { sendDueDeadLetters } from './dead-letter-sends';
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
} from './retention-sweep';
export { schedulerCommands } from './commands';
export { toSchedule, toRun } from './serialize';
export { listSchedulers, getSchedulerByRevision, type SchedulerSummary } from './list-schedulers';
export { writeStorageProbe } from './storage-probe';
export { collectFireMetrics, METRICS_WINDOW_SECONDS, type FireMetrics } from './fire-metrics';
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
} from './worker-heartbeats';
export { targetOptions, lastRunStatuses, enabledCounts, pendingRetries } from './target-options';
export {
  revisionChangeImpacts,
  sessionDeleteImpacts,
  blobDeleteImpact,
  NO_IMPACT,
  type AffectedSchedule,
  type ImpactOutcome,
  type RevisionChangeImpact,
  type ScheduleImpact,
} from './catalog-impact';
export { getSigningSecret } from './get-signing-secret';
export { rotateSigningSecret } from './rotate-signing-secret';
export { signingSecretsForDelivery, ensureSigningSecret, SIGNING_SECRET_OVERLAP_MS, type SigningSecretOptions } from './signing-secrets';
export { findSigningSecret } from './find-signing-secret';

// The EventBridge-compatible API's view (SPEC §14): schedule groups, schedules by group and name,
// remembered client tokens, the default event, and the save-time timing rules.
export { DEFAULT_GROUP, EVENTBRIDGE_NAME, GROUPS_PER_ORG, type GroupTag, type ScheduleGroupInfo } from './groups/group-info';
export {
  createScheduleGroup,
  getScheduleGroup,
  listScheduleGroups,
  deleteScheduleGroup,
  tagScheduleGroup,
  untagScheduleGroup,
} from './groups/schedule-group-verbs';
export { getGroupSchedule, listGroupSchedules, type GroupSchedule, type ScheduleCursor } from './groups/group-schedules';
export { findClientToken, saveClientToken, requestHash } from './client-tokens';
export { eventBridgeOrigin, type EventBridgeOrigin } from './default-event';
export { scheduleArn } from '../delivery';
export { EVENTBRIDGE_START_DATE_GRACE_MS, NO_ALLOWED_HOSTS, type DestinationOptions, type SaveRules } from './save-schedule';
export { parseScheduleExpression, ScheduleExpressionError, type ScheduleExpression } from '../cron';
export { eventBridgeViewOfScheduler, eventBridgeRegionOf, type EventBridgeView } from './groups/eventbridge-view';

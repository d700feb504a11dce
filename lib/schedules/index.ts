/** Public entry of the schedules domain (STYLE §5). */
export * from './contract';
export { createSchedule } from './create-schedule';
export { updateSchedule } from './update-schedule';
export { deleteSchedule } from './delete-schedule';
export { describeScheduleDeletion, describeSchedulerDeletion, type ScheduleDeletion, type SchedulerDeletion } from './describe-schedule-deletion';
export { getSchedule, listSchedules, SCHEDULES_PAGE_SIZE } from './list-schedules';
export { browseSchedules, GRID_PAGE_SIZE, SCHEDULE_SORT_KEYS, type ScheduleSortKey, type SchedulePage } from './browse-schedules';
export { listRuns, RUNS_PAGE_SIZE } from './list-runs';
export { runSchedule } from './run-schedule';
export { setAllEnabled } from './set-all-enabled';
export { listDeadLetters, replayDeadLetter, dismissDeadLetter, countDeadLetters, toDeadLetter, DEAD_LETTERS_PAGE_SIZE } from './dead-letters';
export { fireDue, fireOccurrence, listDueOccurrences, findEarliestNextFire, type FireOutcome } from './fire-occurrence';
export { sweepExpiredRuns, retentionCutoff, RUN_SWEEP_BATCH } from './sweep-runs';
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

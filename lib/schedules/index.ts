/** Public entry of the schedules domain (STYLE §5). */
export * from './contract';
export { createSchedule } from './create-schedule';
export { updateSchedule } from './update-schedule';
export { deleteSchedule } from './delete-schedule';
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
export { recordHeartbeat, removeHeartbeat, freshestHeartbeatAgeSeconds, type HeartbeatOptions } from './worker-heartbeats';
export { collectFireMetrics, METRICS_WINDOW_SECONDS, LIVE_WORKER_SECONDS, type FireMetrics } from './fire-metrics';
export { targetOptions, lastRunStatuses, enabledCounts, pendingRetries } from './target-options';

/** Public entry of the schedules domain (STYLE §5). */
export * from './contract';
export { createSchedule } from './create-schedule';
export { updateSchedule } from './update-schedule';
export { deleteSchedule } from './delete-schedule';
export { getSchedule, listSchedules, SCHEDULES_PAGE_SIZE } from './list-schedules';
export { listRuns, RUNS_PAGE_SIZE } from './list-runs';
export { runSchedule } from './run-schedule';
export { setAllEnabled } from './set-all-enabled';
export { fireOccurrence, listDueOccurrences, type FireOutcome } from './fire-occurrence';
export { schedulerCommands } from './commands';
export { toSchedule, toRun } from './serialize';
export { listSchedulers, getSchedulerByRevision, type SchedulerSummary } from './list-schedulers';

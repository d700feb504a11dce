/**
 * Race-sensitive and bulk SQL, one statement per module, SQLite and PostgreSQL text side by side
 * (STYLE §1.1). Every function runs inside the caller's transaction client.
 */
export { claimDue, claimOccurrence, CLAIM_DUE_SQL, type ClaimedSchedule, type FiringSchedule } from './claim-due';
export { claimRetries, claimRetry, type ClaimedRetry } from './claim-retries';
export { cancelPendingAttempts, cancelledWaitingMessage, type CancelPendingOptions } from './cancel-pending-attempts';
export { lockSchedule, lockScheduleIdentity, lockBlobForDelete, lockPendingAttemptsOf } from './lock-schedule';
export {
  completeFinished,
  insertDeadLetters,
  insertPendingAttempts,
  INSERT_PENDING_SQL,
  updateFailureCounts,
  pauseUndecodable,
  type DeadLetterInsert,
  type FailureCount,
  type PendingAttemptInsert,
} from './record-outcomes';
export { advanceNextFire, ADVANCE_NEXT_FIRE_SQL, MOVE_NEXT_FIRE_SQL, type Advance } from './advance-next-fire';
export { findFiredOccurrences } from './find-fired-occurrences';
export { insertRuns, INSERT_RUNS_SQL, type RunInsert, type RunOutcomeColumns } from './insert-runs';
export { findFireTargets, countRecentExecutionsBySession, type FireTargetKey, type FireTargetRow } from './resolve-fire-targets';
export { insertExecutions, INSERT_EXECUTIONS_SQL, type ExecutionInsert } from './insert-executions';
export { deleteExpiredRows, deleteExpiredSql, type ExpiringTable } from './delete-expired-runs';
export { DELETE_BATCH_SQL, deleteExpiredExecutions, type ExecutionSweepCursor } from './delete-expired-executions';
export { incrementalVacuum, sqliteSpace, checkpointPassive } from './incremental-vacuum';
export { sqlInstant } from './instant';
export { searchSchedules, SCHEDULE_SORT_KEYS, type ScheduleSortKey, type ScheduleSearch } from './search-schedules';
export { rawOneOf, scheduleRecordOf, UndecodableScheduleError, type ScheduleRecord, type ScheduleRowLike } from './schedule-record';
export { DURATION_BUCKETS_SECONDS, fireLateness, LATENESS_BUCKETS_SECONDS, perScheduleSeries, runDurations, type LatenessHistogram, type ScheduleSeries } from './fire-metrics';
export { findLastRuns, countEnabled, type LastRunRecord } from './last-runs';
export { newestRunIds } from './newest-runs';
export { countLoginFailure } from './count-login-failure';
export { lockBlob } from './lock-blob';
export { findPendingRetries, type PendingRetryRecord } from './pending-retries';
export { findSchedulesNamingBlob, type ScheduleNamingBlob } from './schedules-naming-blob';
export { takeInFlight, renewInFlight, lockFiringSchedules, markSendsStarted, undeliverableInFlight, TAKE_IN_FLIGHT_SQL, MARK_SENDS_SQL, LOCK_FIRING_SQL } from './in-flight';
export { claimDeadLetterSends, type DeadLetterSend } from './dead-letter-sends';
export { claimAlertSends, type AlertSend } from './alert-sends';
export { anyEnabledAlertRule, endIncidents, lockAlertRule, lockAlertRulesOfSchedules, lockAlertRulesShared, type IncidentsToEnd } from './alert-rules';
export { findInProgress, releaseBuffered, BUFFERED_DUE_AT, type InProgress } from './overlap';
export { lockScheduleOfRun, endRunOutcome, startRunOutcome, DURATION_MAX_MS } from './check-in';
export { anyRunningBackfill, claimBackfillOccurrences, countBackfillEnded, finishBackfill, lockRunningBackfills, readFiringSchedules, type RunningBackfill } from './backfills';
export { findApiKeyByPrefix, type ApiKeyRecord } from './api-key';
export { blobReachable, findScheduleIfReachable, findScopedRevision, reachableBlobs, type ScopeActor, type ScopedRevisionRecord } from './blob-access';
export { findScheduleByKey, findSchedules, type ScheduleFilter } from './find-schedule';
export { countSchedules, findScheduleHoldingToken, orgOfBlob } from './save-checks';
export { insertActivity, insertSchedule, type ActivityRowInsert } from './insert-schedule';
export { findEarliestDue, deadLetterSendDue, alertSendDue, findRunsPastOutcomeDue, type RunPastOutcomeDue } from './due-probes';

/**
 * Public entry of the fire engine (STYLE §5; docs/architecture.md "A fire, step by step"): claim →
 * plan → advance → attempt → settle, one file a step (fire.ts draws it), knowing target types only
 * through the driver registry (lib/targets). What it needs from the domain and the facades — facts,
 * a facade's stored identity, the activity log — comes in as `EngineDeps`.
 */
export { createEngine, type Engine } from './engine';
export { NO_FACADE, type EngineActivity, type EngineDeps, type EngineOverrides, type FacadeFacts, type ScheduleFact } from './deps';
export type { FireOutcome, SkipReason } from './outcomes';
export type { FireDueOptions, FireOccurrenceOptions } from './fire';
export { occurrencesInRange, type BackfillsFired, type FireBackfillsOptions } from './backfill';
export { listDueOccurrences, listDueRetries } from './claim';
/** The earliest next_fire_at of any schedule or due_at of any pending attempt (UTC), or null: the worker's sleep bound between ticks. */
export { findEarliestDue } from '../db';
export type { Plan, NextOccurrence } from './plan';
export type { AfterAttempt, RunOutcome } from './settle';
export { errorCodeOf } from './settle';
export { cancelUndeliverable, createDeliveryDeps, renewInFlightLeases, LEASE_RENEW_MS, type DeliveredAttempt, type InFlightAttempt } from './in-flight';
export type { StartedManualFire } from './manual-fire';
export type { DeadLetterSendReport } from './dead-letter-sends';
export { finishSchedules, deleteCompleted } from './finish';
export { afterFailedAttempt, retryPolicyOf, type AttemptVerdict, type RetryPolicy } from './retry-policy';
export { fireAtOf, nextOccurrenceInWindow, inWindow, rateAnchorFor, countDueOccurrences, type ScheduleTiming } from './occurrences';
export { flexibleFireAt, flexibleOffsetSeconds } from './flexible-window';
export * from './contract';
export { outcomeAtRecord, type CheckinAnswer, type CheckinKind, type HeldCheckin, type OutcomeColumns } from './completion';
export { checkinUrls, checkinKey, checkinToken, runIdOfCheckinToken, CHECKIN_PATH, type CheckinUrls } from './checkin-token';

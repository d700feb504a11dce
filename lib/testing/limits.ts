/**
 * SPEC §9 limits at their defaults, written out for tests: a test passes these (or a copy with one
 * field changed) to the domain, never sets the environment (limits are parsed once at the edge).
 */
import type { Limits } from '../config';

export const TEST_LIMITS: Readonly<Limits> = {
  schedulesPerRevision: 1000,
  minIntervalSeconds: 60,
  runRetentionDays: 30,
  catchupWindowSeconds: 300,
  executionsPerSessionPerMinute: 600,
  executionRetentionDays: 30,
};

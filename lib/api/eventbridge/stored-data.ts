/**
 * What this facade stores beside a schedule (its facade data, the `eventbridge` column, SPEC §14):
 * what the product's fields do not hold (the raw `Target`, `KmsKeyArn`, the region) and the copies of
 * fields it answers as sent. The domain never reads it; it only lists, under `changed`, the request
 * fields a save made elsewhere changed (lib/schedules/save/update-schedule.ts), so that this facade stops
 * answering its copies of them and answers the product's fields again. Saving through this API
 * replaces the whole of it (and so clears `changed`).
 */
import type { WireTarget } from './wire';

/** What the `eventbridge` column holds. */
export interface StoredEventBridge {
  v: 1;
  /** Where and as what it was last saved through this API. */
  region: string;
  account: string;
  arn: string;
  /** The Target as sent (once the product changes the target, only its `RoleArn` is still answered). */
  target: Partial<WireTarget>;
  /** The expression as sent (no longer answered once the product changes the cadence). */
  expression?: string;
  /** The full Description when longer than the product's 256 (no longer answered once the product changes it). */
  description?: string;
  /** The default event's origin, for a target without Input (SPEC §13.3). */
  defaultEvent?: { arn: string; region: string; account: string };
  kmsKeyArn?: string;
  /**
   * `FlexibleTimeWindow.MaximumWindowInMinutes` sent with `Mode: OFF` (decision 315): the model allows
   * it, the window has no effect while OFF, and GetSchedule answers it as sent (no longer once the
   * product changes the window).
   */
  offWindowMinutes?: number;
  /** The request fields a save made elsewhere changed since this API last saved the schedule (written by the domain). */
  changed?: string[];
}

/**
 * This facade's copies of product fields (SPEC §14), by key, and the request fields each one mirrors:
 * a copy is answered only while none of them has been changed elsewhere (`changed`).
 */
const COPIES: Record<'target' | 'defaultEvent' | 'description' | 'expression' | 'offWindowMinutes', readonly string[]> = {
  target: ['invocation_target_type', 'invocation_target'],
  defaultEvent: ['invocation_target_type', 'invocation_target'],
  description: ['description'],
  expression: ['repeat', 'cron_expression', 'rate_expression', 'invocation_time'],
  offWindowMinutes: ['flexible_time_window'],
};

/**
 * The stored data of a schedule as this facade may still answer it: each copy whose fields were
 * changed elsewhere left out whole — of the raw `target` only its `RoleArn` stays, which the product
 * holds for no target but `aws` (schedule-mapping.ts answers an `aws` target's role from its
 * `role_arn`). `{}` for a schedule never saved here.
 */
export function liveStoredData(raw: unknown): Partial<StoredEventBridge> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const stored = { ...(raw as Partial<StoredEventBridge>) };
  const changed = new Set(Array.isArray(stored.changed) ? stored.changed : []);
  for (const [key, fields] of Object.entries(COPIES) as [keyof typeof COPIES, readonly string[]][]) {
    if (!(key in stored) || !fields.some((f) => changed.has(f))) continue;
    const role = key === 'target' ? stored.target?.RoleArn : undefined;
    if (role !== undefined) stored.target = { RoleArn: role };
    else delete stored[key];
  }
  return stored;
}

/**
 * Where the default event (SPEC §13.3, built by lib/delivery's `defaultEvent`) of a schedule saved
 * through the EventBridge-compatible API comes from: a workflow target saved without `Target.Input`
 * gets it as `input_data: [{"alias": "event", "value": <event>}]` (SPEC §13.3, §14). Pure.
 */

/** Where an EventBridge-made schedule lives on that API: its ARN, the region it was saved in, its account. */
export interface EventBridgeOrigin {
  arn: string;
  region: string;
  account: string;
}

/**
 * The origin the EventBridge API stored under `defaultEvent` in a schedule's `eventbridge` column
 * (only when its Target had no Input), or null.
 */
export function eventBridgeOrigin(stored: unknown): EventBridgeOrigin | null {
  const origin = typeof stored === 'object' && stored !== null ? (stored as { defaultEvent?: unknown }).defaultEvent : null;
  if (typeof origin !== 'object' || origin === null) return null;
  const { arn, region, account } = origin as Record<string, unknown>;
  return typeof arn === 'string' && typeof region === 'string' && typeof account === 'string' ? { arn, region, account } : null;
}

/**
 * The flexible time window (SPEC §12.4) as a pure rule: each occurrence fires at
 * `scheduled_for + offset`, `offset` in `[0, maximum_window_minutes)`, derived from the schedule id and
 * `scheduled_for` alone, so the same occurrence always gets the same offset (on every worker, after
 * every restart) while the occurrences of many schedules spread evenly over the window.
 */

/**
 * The offset of occurrence `scheduledFor` of schedule `scheduleId`, in whole seconds in
 * `[0, windowMinutes × 60)`. 32-bit FNV-1a over `<id>|<epoch ms>`, then murmur3's finalizer so that
 * neighbouring inputs land far apart; the modulo bias is below 2 × 10⁻⁵ for the largest window (1440 min).
 */
export function flexibleOffsetSeconds(scheduleId: string, scheduledFor: Date, windowMinutes: number): number {
  const windowSeconds = windowMinutes * 60;
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new RangeError('windowMinutes must be a whole number ≥ 1');
  const text = `${scheduleId}|${scheduledFor.getTime()}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % windowSeconds;
}

/** The instant occurrence `scheduledFor` fires at with a flexible window of `windowMinutes` (null: off). */
export function flexibleFireAt(scheduleId: string, scheduledFor: Date, windowMinutes: number | null): Date {
  if (windowMinutes === null) return scheduledFor;
  return new Date(scheduledFor.getTime() + flexibleOffsetSeconds(scheduleId, scheduledFor, windowMinutes) * 1000);
}

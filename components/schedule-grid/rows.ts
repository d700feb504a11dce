/**
 * The grid's rows: what the page sends of each schedule (one page of 50) and what the columns show of
 * it, worked out once a row (its name, and its cadence in words).
 */
import { createColumnHelper } from '@tanstack/react-table';
import { describeCron, describeRate } from '@/lib/cron';
import type { OverdueReason, PendingRetry, Run, RunOutcomeState, Schedule } from '@/lib/schedules/contract';
import type { ShownTarget } from '../targets';
import { formatLocalTime } from '../format';

/** The fields of a schedule the grid shows: the page sends only these to the browser (50 rows a page). */
export type GridSchedule = Pick<
  Schedule,
  'id' | 'alias' | 'description' | 'repeat' | 'invocation_time' | 'cron_expression' | 'rate_expression' | 'timezone' | 'state' | 'enabled' | 'next_fire_at'
> & {
  /** The target in its own words (`displayTarget`): a workflow target's parts, a webhook's or an AWS target's headline. */
  invocation_target: ShownTarget;
};

export interface GridRow {
  schedule: GridSchedule;
  /** The newest run (its outcome null when it has none, SPEC §16.3), or null when the schedule never fired. */
  lastRun: (Pick<Run, 'status' | 'trigger' | 'created_at'> & { outcome: RunOutcomeState | null }) | null;
  /** The soonest pending retry (SPEC §12.2): the schedule is "retrying"; null when none. */
  retry: PendingRetry | null;
  /** A `buffer_one` occurrence waiting for the run in progress (SPEC §16.2): "waiting"; null when none. */
  waiting?: PendingRetry | null;
  /**
   * Set when the next fire is overdue at the page's render: `no_worker` (no worker is alive, so
   * nothing fires it) or `behind` (workers are alive but late). See `overdueReason` in lib/schedules.
   */
  overdue?: OverdueReason;
}

/** A row as the columns read it. */
export interface Row extends GridRow {
  /** The alias, else the id. */
  label: string;
  /** The cron or rate expression, or the one-time schedule's local invocation time. */
  cadence: string;
  /** The cron or rate expression in words. */
  cadenceDetail: string;
  /**
   * Whether Next fire shows its seconds: for a one-time schedule (its Cadence, the invocation time,
   * shows them) and for any next fire off the whole minute (a flexible window's offset), so the two
   * columns never disagree and no second is hidden.
   */
  nextFireSeconds: boolean;
}

/** The one column helper of the grid's columns. */
export const column = createColumnHelper<Row>();

/** cronstrue costs ~0.1 ms an expression and the page re-renders every 10 s: keep recent descriptions. */
const descriptions = new Map<string, string>();
function describeCached(expression: string, describe: (expression: string) => string = describeCron): string {
  let detail = descriptions.get(expression);
  if (detail === undefined) {
    try {
      detail = describe(expression);
    } catch {
      detail = 'Not a valid expression';
    }
    if (descriptions.size >= 2000) descriptions.clear();
    descriptions.set(expression, detail);
  }
  return detail;
}

function cadenceOf(s: GridSchedule): { cadence: string; detail: string } {
  if (s.repeat === 'one_time') return { cadence: formatLocalTime(s.invocation_time ?? ''), detail: 'One-time' };
  // A rate is `<value> <unit>` and a cron expression has six fields: one cache holds both.
  if (s.repeat === 'recurring_rate') return { cadence: s.rate_expression ?? '', detail: describeCached(s.rate_expression ?? '', describeRate) };
  return { cadence: s.cron_expression ?? '', detail: describeCached(s.cron_expression ?? '') };
}

/** The row the columns read for one schedule of the page. */
export function toRow(r: GridRow): Row {
  const { cadence, detail } = cadenceOf(r.schedule);
  const next = r.schedule.next_fire_at;
  const nextFireSeconds = r.schedule.repeat === 'one_time' || (next !== null && Date.parse(next) % 60_000 !== 0);
  return { ...r, label: r.schedule.alias ?? r.schedule.id, cadence, cadenceDetail: detail, nextFireSeconds };
}

/**
 * `scheduler ls`: the deployed schedules as a table (SPEC §11): alias (or id), cadence, timezone,
 * enabled, state, next fire, and the status of the latest run (first page of `list_executions`).
 */
import { CADENCE_FIELD, type Repeat, type Run, type Schedule } from '../../lib/schedules/contract';
import { connect, resolveScheduler, type ConnectionFlags } from '../connection';
import { EXIT, reportError, schedulerOfFile, type Io } from '../io';
import { scheduleLabel, showLastRun, table } from '../render';

export interface LsOptions {
  file: string;
  flags: ConnectionFlags;
  io: Io;
  /** Print JSON (`[{...schedule, last_run}]`) instead of a table. */
  json?: boolean;
}

/** Up to `limit` promises at a time, results in input order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}

/** How the cadence column names each `repeat` (SPEC §5.1, §12.1). */
const CADENCE_WORD = { one_time: 'once', recurring_cron: 'cron', recurring_rate: 'rate' } as const satisfies Record<Repeat, string>;

/**
 * The cadence column: the kind and the field that states it (SPEC §5.2), e.g. `cron 0 2 * * ? *`,
 * `rate 15 minutes`, `once 2030-01-01T00:00:00` (local wall time in the schedule's timezone).
 */
export function cadence(s: Schedule): string {
  return `${CADENCE_WORD[s.repeat]} ${s[CADENCE_FIELD[s.repeat]] ?? ''}`.trimEnd();
}

/** Run `ls`. Returns the exit code (0, or 1 on error). */
export async function ls(opts: LsOptions): Promise<number> {
  const { io } = opts;
  try {
    const client = connect(opts.flags);
    const scheduler = await resolveScheduler(client, opts.flags, schedulerOfFile(opts.file));
    const schedules = await client.listAllSchedules(scheduler.revisionId);
    const runs: (Run | null)[] = await mapLimited(schedules, 8, (s) => client.latestRun(scheduler.revisionId, s.id));
    if (opts.json) {
      io.out(JSON.stringify(schedules.map((s, i) => ({ ...s, last_run: runs[i] })), null, 2));
      return EXIT.ok;
    }
    if (!schedules.length) {
      io.out(`No schedules in ${scheduler.label}.`);
      return EXIT.ok;
    }
    const rows = schedules.map((s, i) => [
      scheduleLabel(s),
      cadence(s),
      s.timezone,
      s.enabled ? 'yes' : 'no',
      s.state,
      s.next_fire_at,
      showLastRun(runs[i]),
    ]);
    for (const line of table(['SCHEDULE', 'CADENCE', 'TIMEZONE', 'ENABLED', 'STATE', 'NEXT FIRE (UTC)', 'LAST RUN'], rows)) io.out(line);
    io.out(`${schedules.length} schedule${schedules.length === 1 ? '' : 's'} in ${scheduler.label}.`);
    return EXIT.ok;
  } catch (e) {
    return reportError(io, e);
  }
}

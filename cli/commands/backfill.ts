/**
 * `scheduler backfill <schedule> --from --to [--reprocess] [--max-concurrency] [--order] [--dry-run]
 * [--no-wait]` (SPEC §18.1): fire a schedule's past occurrences in (from, to] over the HTTP API. A
 * dry run prints the count and the first instants; otherwise one progress line per poll until the
 * backfill completes or is cancelled (exit 0, or 1 when some occurrence failed), or at once with
 * `--no-wait`.
 */
import type { Backfill, BackfillDryRun } from '../../lib/schedules/contract';
import { connect, resolveScheduler, type ConnectionFlags } from '../connection';
import { EXIT, reportError, schedulerOfFile, type Io } from '../io';

export interface BackfillOptions {
  file: string;
  flags: ConnectionFlags;
  io: Io;
  schedule: string;
  from: string;
  to: string;
  reprocess?: string;
  maxConcurrency?: number;
  order?: string;
  dryRun?: boolean;
  /** Print the backfill and return at once instead of following its progress. */
  wait: boolean;
  /** Between two progress polls, in ms (default 1000). */
  pollMs?: number;
}

/** One progress line: `<id> running  120/500 fired · 118 succeeded · 0 failed · 2 in flight`. */
export function progressLine(b: Backfill): string {
  const pct = b.total ? Math.floor(((b.succeeded + b.failed) * 100) / b.total) : 100;
  return `backfill ${b.id} ${b.state} ${pct}%: ${b.fired}/${b.total} fired · ${b.succeeded} succeeded · ${b.failed} failed · ${b.in_flight} in flight`;
}

/** Run `backfill`. Returns the exit code. */
export async function backfill(opts: BackfillOptions): Promise<number> {
  const { io } = opts;
  try {
    const client = connect(opts.flags);
    const scheduler = await resolveScheduler(client, opts.flags, schedulerOfFile(opts.file));
    const params = {
      schedule_id: opts.schedule,
      from: opts.from,
      to: opts.to,
      ...(opts.reprocess ? { reprocess: opts.reprocess } : {}),
      ...(opts.maxConcurrency ? { max_concurrency: opts.maxConcurrency } : {}),
      ...(opts.order ? { order: opts.order } : {}),
    };
    if (opts.dryRun) {
      const dry = await client.command<BackfillDryRun>(scheduler.revisionId, 'scheduler_blobhub', 'backfill_schedule', { ...params, dry_run: true });
      io.out(`${dry.total} occurrence${dry.total === 1 ? '' : 's'} would fire (dry run: nothing written)${dry.first.length ? `; the first ${dry.first.length}:` : '.'}`);
      for (const at of dry.first) io.out(`  ${at}`);
      return EXIT.ok;
    }
    let { backfill: b } = await client.command<{ backfill: Backfill }>(scheduler.revisionId, 'scheduler_blobhub', 'backfill_schedule', params);
    io.out(progressLine(b));
    if (!opts.wait) return EXIT.ok;
    let last = progressLine(b);
    while (b.state === 'running') {
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 1000));
      ({ backfill: b } = await client.command<{ backfill: Backfill }>(scheduler.revisionId, 'scheduler_blobhub', 'get_backfill', { backfill_id: b.id }));
      const line = progressLine(b);
      if (line !== last) io.out(line);
      last = line;
    }
    return b.failed > 0 ? EXIT.error : EXIT.ok;
  } catch (e) {
    return reportError(io, e);
  }
}

/**
 * The `scheduler` CLI (SPEC §11, docs/cli.md): schedules as code over the HTTP API, and the time engine
 * from the terminal. Exit codes: 0 ok, 1 error, 2 differences found (`diff`).
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { backfill } from './commands/backfill';
import { cronExplain, cronNext } from './commands/cron';
import { deploy } from './commands/deploy';
import { diff } from './commands/diff';
import { ls } from './commands/ls';
import { pull } from './commands/pull';
import type { ConnectionFlags } from './connection';
import { DEFAULT_MANIFEST, EXIT, processIo, type Io } from './io';

/** Options every server command takes. */
function withConnection(cmd: Command): Command {
  return cmd
    .option('-f, --file <path>', 'manifest file', DEFAULT_MANIFEST)
    .option('--url <url>', 'base URL of the web app (env SCHEDULER_URL; default http://127.0.0.1:3000)')
    .option('--api-key <key>', 'API key, sent as X-API-Key (env SCHEDULER_API_KEY)')
    .option('--revision <id>', "the scheduler's revision id (env SCHEDULER_REVISION)")
    .option('--scheduler <org/blob>', 'the scheduler by org and blob, id or alias, found through discovery');
}

interface ServerOpts extends ConnectionFlags {
  file: string;
}

function flagsOf(o: ServerOpts): ConnectionFlags {
  return { url: o.url, apiKey: o.apiKey, revision: o.revision, scheduler: o.scheduler };
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 1000) throw new InvalidArgumentError('a whole number from 1 to 1000');
  return n;
}

function concurrency(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 100) throw new InvalidArgumentError('a whole number from 1 to 100');
  return n;
}

/** Build the command tree; `setCode` receives each action's exit code. */
export function buildProgram(io: Io, setCode: (code: number) => void): Command {
  const program = new Command('scheduler')
    .description('Schedules as code for the self-hosted scheduler: deploy, diff, pull and ls a YAML manifest; preview cron expressions.')
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .exitOverride();

  withConnection(program.command('deploy').description('create the missing schedules and update the differing ones; drift is left alone')).action(async (o: ServerOpts) => {
    setCode(await deploy({ file: o.file, flags: flagsOf(o), io }));
  });
  withConnection(program.command('diff').description('show what deploy would change, field by field; exit 0 when nothing differs, 2 when something does'))
    .option('--fail-on-drift', 'also exit 2 when the scheduler holds schedules the manifest does not list')
    .action(async (o: ServerOpts & { failOnDrift?: boolean }) => {
      setCode(await diff({ file: o.file, flags: flagsOf(o), io, failOnDrift: o.failOnDrift }));
    });
  withConnection(program.command('pull').description('write the deployed schedules into the manifest (created if missing)')).action(async (o: ServerOpts) => {
    setCode(await pull({ file: o.file, flags: flagsOf(o), io }));
  });
  withConnection(program.command('ls').description('list the deployed schedules with next fire and last run status'))
    .option('--json', 'print JSON instead of a table')
    .action(async (o: ServerOpts & { json?: boolean }) => {
      setCode(await ls({ file: o.file, flags: flagsOf(o), io, json: o.json }));
    });

  withConnection(program.command('backfill').description("fire a schedule's past occurrences in (from, to] and follow its progress (SPEC §18.1)"))
    .argument('<schedule>', 'the schedule, id or alias')
    .requiredOption('--from <time>', "occurrences after this (exclusive): an instant (2026-01-01T00:00:00Z) or a wall time in the schedule's timezone (2026-01-01T09:00)")
    .requiredOption('--to <time>', 'occurrences up to this (inclusive; not after now), as --from')
    .option('--reprocess <which>', 'missing (default): no run of any kind; failed: those and the failed ones; all')
    .option('--max-concurrency <n>', 'most occurrences in flight at once (1-100, default 1)', concurrency)
    .option('--order <order>', 'oldest_first (default) or newest_first')
    .option('--dry-run', 'print how many would fire and the first 20; write nothing')
    .option('--no-wait', 'start it and return at once, without following its progress')
    .action(async (schedule: string, o: ServerOpts & { from: string; to: string; reprocess?: string; maxConcurrency?: number; order?: string; dryRun?: boolean; wait: boolean }) => {
      setCode(await backfill({ file: o.file, flags: flagsOf(o), io, schedule, from: o.from, to: o.to, reprocess: o.reprocess, maxConcurrency: o.maxConcurrency, order: o.order, dryRun: o.dryRun, wait: o.wait }));
    });

  const cron = program.command('cron').description('the time engine from the terminal (no server needed)');
  cron
    .command('next')
    .description('print the next occurrences: ISO UTC instant, then local wall time and zone')
    .argument('<expression>', 'six-field AWS cron expression, e.g. "0 9 ? * MON-FRI *", or a rate such as "rate(15 minutes)"')
    .option('--tz <zone>', 'IANA time zone', 'UTC')
    .option('-n, --count <n>', 'how many occurrences (1-1000)', positiveInt, 5)
    .option('--after <iso>', 'occurrences strictly after this instant (default: now)')
    .option('--anchor <iso>', 'a rate: the instant its intervals count from (the start date; default: the next whole minute after --after or now, as a save would)')
    .action((expression: string, o: { tz: string; count: number; after?: string; anchor?: string }) => {
      setCode(cronNext({ expression, timezone: o.tz, count: o.count, after: o.after, anchor: o.anchor, io }));
    });
  cron
    .command('explain')
    .description('describe a cron expression in English and show its six fields (or a rate, "rate(15 minutes)")')
    .argument('<expression>', 'six-field AWS cron expression, or rate(<value> <unit>)')
    .action((expression: string) => {
      setCode(cronExplain(expression, io));
    });
  return program;
}

/** Run the CLI on `argv` (as `process.argv`). Returns the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv]);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.error;
    throw e;
  }
  return code;
}

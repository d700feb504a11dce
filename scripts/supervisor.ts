/**
 * `npm start`'s process supervision (scripts/start.ts): the web app and the worker run as children.
 * - A child started with `restart: true` (the worker) that exits while `npm start` runs is started
 *   again after a back-off, and the others keep running: 1 s after the first exit, doubling after each
 *   exit that follows a run shorter than `resetAfterMs` (a crash loop), at most `maxMs`; a run that
 *   lasted `resetAfterMs` starts the count again. Each exit and restart is said on stderr/stdout.
 * - A child without `restart` (the web app) that exits stops the others, and `npm start` exits with
 *   its code (1 when it was killed by a signal).
 * - `stop()` (SIGINT — Ctrl-C — and SIGTERM in start.ts) cancels a pending restart, sends SIGTERM to
 *   every child, waits for them (SIGKILL after `stopTimeoutMs`), then exits with the code given.
 * Between a worker's exit and its restart no worker fires: `/api/health` and the web app's banner say
 * so once its heartbeats are late (3 × its interval), as for any worker that stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface BackoffOptions {
  /** The delay before the first restart, in ms. Default 1000. */
  initialMs: number;
  /** The longest delay, in ms. Default 60000. */
  maxMs: number;
  /** A run at least this long (ms) resets the delay to `initialMs`. Default 60000. */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000, resetAfterMs: 60_000 };

/** The delay before restart number `restart` (1, 2, …) of a crash loop: initial × 2^(restart−1), capped. */
export function restartDelayMs(restart: number, backoff: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, restart - 1));
}

/** `850 ms`, `4 s`, `2 min` — a delay or a run's length in the supervisor's lines. */
function span(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

export interface ChildSpec {
  /** `web`, `worker`: how the lines name it. */
  name: string;
  command: string;
  argv: string[];
  env?: NodeJS.ProcessEnv;
  /** Start it again when it exits (the worker); otherwise its exit stops everything (the web app). */
  restart?: boolean;
}

export interface SupervisorOptions {
  cwd: string;
  backoff?: BackoffOptions;
  /** How long `stop()` waits for the children before SIGKILL, in ms. Default 10000. */
  stopTimeoutMs?: number;
  /** Where lines go. Default `console.log` / `console.error`. */
  log?: (line: string) => void;
  warn?: (line: string) => void;
  /** Ends the process. Default `process.exit`. */
  exit?: (code: number) => void;
}

interface Running {
  spec: ChildSpec;
  child: ChildProcess | null;
  startedAt: number;
  /** Restarts in the current crash loop (reset by a run of `resetAfterMs`). */
  restarts: number;
  timer: NodeJS.Timeout | null;
}

export class Supervisor {
  private readonly running: Running[] = [];
  private stopping = false;
  private readonly backoff: BackoffOptions;
  private readonly log: (line: string) => void;
  private readonly warn: (line: string) => void;
  private readonly exit: (code: number) => void;

  constructor(private readonly opts: SupervisorOptions) {
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.log = opts.log ?? ((l) => console.log(l));
    this.warn = opts.warn ?? ((l) => console.error(l));
    this.exit = opts.exit ?? ((c) => process.exit(c));
  }

  /** True once `stop()` was called. */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** Start `spec` (output inherited) and watch it. */
  start(spec: ChildSpec): void {
    const entry: Running = { spec, child: null, startedAt: 0, restarts: 0, timer: null };
    this.running.push(entry);
    this.spawn(entry);
    this.log(`start: ${spec.name} started (pid ${entry.child?.pid})`);
  }

  private spawn(entry: Running): void {
    const child = spawn(entry.spec.command, entry.spec.argv, { cwd: this.opts.cwd, stdio: 'inherit', env: entry.spec.env ?? process.env });
    entry.child = child;
    entry.startedAt = Date.now();
    child.on('exit', (code, signal) => this.exited(entry, child, code, signal));
  }

  private exited(entry: Running, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (entry.child === child) entry.child = null;
    if (this.stopping) return;
    const how = signal ?? `code ${code}`;
    const ran = Date.now() - entry.startedAt;
    if (!entry.spec.restart) {
      this.warn(`start: ${entry.spec.name} exited (${how}); stopping the rest`);
      void this.stop(code ?? 1);
      return;
    }
    entry.restarts = ran >= this.backoff.resetAfterMs ? 1 : entry.restarts + 1;
    const delay = restartDelayMs(entry.restarts, this.backoff);
    const others = this.running.filter((r) => r !== entry && r.child).map((r) => r.spec.name);
    this.warn(
      `start: ${entry.spec.name} exited (${how}) after ${span(ran)}; ${others.length ? `the ${others.join(' and ')} keep${others.length === 1 ? 's' : ''} running; ` : ''}` +
        `restarting the ${entry.spec.name} in ${span(delay)} (restart ${entry.restarts}${entry.restarts > 1 ? ', backing off' : ''})`,
    );
    entry.timer = setTimeout(() => {
      entry.timer = null;
      // Ctrl-C or SIGTERM in the meantime: nothing is started again.
      if (this.stopping) return;
      this.spawn(entry);
      this.log(`start: ${entry.spec.name} restarted (pid ${entry.child?.pid})`);
    }, delay);
  }

  /** Stop every child (SIGTERM, SIGKILL after the timeout), then exit with `code`. Idempotent. */
  async stop(code: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const r of this.running) if (r.timer) clearTimeout(r.timer);
    const live = this.running.flatMap((r) => (r.child && r.child.exitCode === null && r.child.signalCode === null ? [r.child] : []));
    const exited = Promise.all(live.map((c) => new Promise((resolve) => c.once('exit', resolve))));
    for (const c of live) c.kill('SIGTERM');
    const timeout = setTimeout(() => {
      for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    }, this.opts.stopTimeoutMs ?? 10_000);
    await exited;
    clearTimeout(timeout);
    this.exit(code);
  }
}

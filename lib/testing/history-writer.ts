/**
 * Tests and benchmarks only: another writer, in its own process (its own connection; on SQLite it
 * competes for the one write lock), that keeps committing fresh fire history: per transaction one
 * execution and the run that links it, like one fire, then a pause of `PAUSE_MS` (a steady writer
 * such as the web app, not a second CPU-bound loop on a 2-core machine). Started with `spawnHistoryWriter`;
 * on SIGTERM it finishes the transaction in hand, prints one JSON line
 * `{"commits": n, "at": [epoch ms of each commit], "ms": [each transaction's latency, BEGIN wait included]}`
 * and exits 0. It prints `ready` after its first commit.
 *
 * Environment: DATABASE_URL; argument: the JSON of a `HistoryWriterTarget`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { childEnv, loadConfig } from '../config';
import { createDb, inTransaction, insertExecutions, insertRuns } from '../db';

/** Where the writer's rows go: one schedule for its runs, one session/definition for its executions. */
export interface HistoryWriterTarget {
  scheduleId: string;
  workflowRevisionId: string;
  sessionId: string;
  definitionId: string;
  orgId: string;
}

export interface HistoryWriterReport {
  commits: number;
  /** When each transaction committed (epoch ms). */
  at: number[];
  /** How long each took, waiting for the database included (ms). */
  ms: number[];
}

/** The pause after each commit, in ms. */
export const PAUSE_MS = 10;

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '../..');

/**
 * Start a writer on `url`; resolves once it has committed its first transaction. `stop()` ends it
 * and resolves with its report.
 */
export async function spawnHistoryWriter(url: string, target: HistoryWriterTarget): Promise<{ child: ChildProcess; stop: () => Promise<HistoryWriterReport> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/testing/history-writer.ts', JSON.stringify(target)], {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: url }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  let report: HistoryWriterReport | null = null;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`history writer exited (${code}) before its first commit`)));
    lines.on('line', (line) => {
      if (line === 'ready') resolve();
      else if (line.startsWith('{')) report = JSON.parse(line) as HistoryWriterReport;
    });
  });
  return {
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      if (!report) throw new Error('history writer stopped without its report');
      return report;
    },
  };
}

async function main(): Promise<void> {
  const target = JSON.parse(process.argv[2] ?? '') as HistoryWriterTarget;
  const db = createDb(loadConfig().databaseUrl);
  let stopping = false;
  process.on('SIGTERM', () => (stopping = true));
  const at: number[] = [];
  const ms: number[] = [];
  const base = Date.now();
  for (let n = 0; !stopping; n++) {
    const started = performance.now();
    const now = new Date();
    const runId = randomUUID();
    const executionId = randomUUID();
    await inTransaction(db, async (tx) => {
      await insertExecutions(tx, [{
        id: executionId, revisionId: target.workflowRevisionId, sessionId: target.sessionId, definitionId: target.definitionId,
        description: null, inputData: [], createdByType: 'org', createdById: target.orgId, scheduleId: target.scheduleId, runId, createdAt: now,
      }]);
      // `manual` with a distinct instant per commit: the UNIQUE occurrence key never refuses one.
      await insertRuns(tx, [{
        id: runId, scheduleId: target.scheduleId, scheduledFor: new Date(base + n), trigger: 'manual', status: 'success',
        result: { execution_id: executionId }, executionId, createdAt: now,
      }]);
    });
    at.push(Date.now());
    ms.push(performance.now() - started);
    if (n === 0) console.log('ready');
    // The pause also lets SIGTERM be seen between two transactions.
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
  console.log(JSON.stringify({ commits: at.length, at, ms } satisfies HistoryWriterReport));
  await db.$disconnect();
}

if (process.argv[1] && path.resolve(process.argv[1]) === SELF) {
  main().catch((e) => {
    console.error(`history writer: ${String(e)}`);
    process.exit(1);
  });
}

/**
 * The one place that reads `process.env` (STYLE §2.7). Parsed once with zod into `AppConfig`,
 * which has no optional settings left, so no caller writes `?? default`.
 */
import { z } from 'zod';

const intFrom = (fallback: number, min = 0) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `must be an integer ≥ ${min}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const EnvSchema = z.object({
  PORT: intFrom(3000, 1),
  HOSTNAME: z.string().optional().transform((v) => v || '127.0.0.1'),
  DATABASE_URL: z.string().optional().transform((v) => v || 'file:./data/scheduler.db'),
  SCHEDULER_BOOTSTRAP_API_KEY: z.string().optional().transform((v) => v || undefined),
  SCHEDULER_SCHEDULES_PER_REVISION: intFrom(1000, 1),
  SCHEDULER_MIN_INTERVAL_SECONDS: intFrom(60, 0),
  SCHEDULER_RUN_RETENTION_DAYS: intFrom(30, 1),
  SCHEDULER_CATCHUP_WINDOW_SECONDS: intFrom(300, 0),
  WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: intFrom(600, 1),
  WORKER_POLL_INTERVAL_MS: intFrom(1000, 50),
  WORKER_BATCH_SIZE: intFrom(100, 1),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).optional().transform((v) => v ?? 'info'),
});

/** SPEC §9 limits, resolved. Every field is required: defaults are applied here and nowhere else. */
export interface Limits {
  /** Most schedules one scheduler holds. Default 1000 (SPEC §9 `scheduler.schedules_per_revision`). */
  schedulesPerRevision: number;
  /** Shortest allowed gap between two consecutive cron fires, in seconds. Default 60. */
  minIntervalSeconds: number;
  /** Run records older than this many days (by fire time) are swept. Default 30. */
  runRetentionDays: number;
  /** How late a missed occurrence may still fire, in seconds. Default 300. Older ones are skipped and counted. */
  catchupWindowSeconds: number;
  /** `create_execution` calls allowed per session per rolling minute. Default 600. */
  executionsPerSessionPerMinute: number;
}

export interface AppConfig {
  port: number;
  hostname: string;
  /** `file:<path>` (SQLite, the embedded default) or `postgresql://…`. */
  databaseUrl: string;
  dialect: 'sqlite' | 'postgresql';
  bootstrapApiKey: string | undefined;
  limits: Limits;
  worker: { pollIntervalMs: number; batchSize: number };
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

let cached: AppConfig | undefined;

/**
 * Parse the environment once. Throws an Error naming every bad variable.
 * Variables: PORT, HOSTNAME, DATABASE_URL, SCHEDULER_BOOTSTRAP_API_KEY, SCHEDULER_SCHEDULES_PER_REVISION,
 * SCHEDULER_MIN_INTERVAL_SECONDS, SCHEDULER_RUN_RETENTION_DAYS, SCHEDULER_CATCHUP_WINDOW_SECONDS,
 * WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE, WORKER_POLL_INTERVAL_MS, WORKER_BATCH_SIZE, LOG_LEVEL.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  if (cached && env === process.env) return cached;
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const config: AppConfig = {
    port: e.PORT,
    hostname: e.HOSTNAME,
    databaseUrl: e.DATABASE_URL,
    dialect: /^postgres(ql)?:\/\//.test(e.DATABASE_URL) ? 'postgresql' : 'sqlite',
    bootstrapApiKey: e.SCHEDULER_BOOTSTRAP_API_KEY,
    limits: {
      schedulesPerRevision: e.SCHEDULER_SCHEDULES_PER_REVISION,
      minIntervalSeconds: e.SCHEDULER_MIN_INTERVAL_SECONDS,
      runRetentionDays: e.SCHEDULER_RUN_RETENTION_DAYS,
      catchupWindowSeconds: e.SCHEDULER_CATCHUP_WINDOW_SECONDS,
      executionsPerSessionPerMinute: e.WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE,
    },
    worker: { pollIntervalMs: e.WORKER_POLL_INTERVAL_MS, batchSize: e.WORKER_BATCH_SIZE },
    logLevel: e.LOG_LEVEL,
  };
  if (env === process.env) cached = config;
  return config;
}

/** For tests that change limits between cases: forget the cached configuration. */
export function resetConfigCache(): void {
  cached = undefined;
}

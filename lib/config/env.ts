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
  DATABASE_POOL_SIZE: intFrom(10, 1),
  SCHEDULER_BOOTSTRAP_API_KEY: z.string().optional().transform((v) => v || undefined),
  SCHEDULER_DEMO_PASSWORD: z.string().optional().transform((v) => v || undefined),
  SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^[A-Za-z0-9_.-]{3,128}$/.test(v), 'must be 3–128 characters from A-Z, a-z, 0-9, "_", ".", "-"'),
  SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || (v.length >= 8 && v.length <= 128 && !/\s/.test(v)), 'must be 8–128 characters without spaces'),
  SCHEDULER_SECRET_KEY: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine((v) => v === undefined || decodeKey(v) !== null, 'must be 32 bytes, written as 64 hex digits or 44 base64 characters'),
  SCHEDULER_SECRET_KEY_FILE: z.string().optional().transform((v) => v || './data/scheduler-secret.key'),
  SCHEDULER_SCHEDULES_PER_REVISION: intFrom(1000, 1),
  SCHEDULER_MIN_INTERVAL_SECONDS: intFrom(60, 0),
  SCHEDULER_RUN_RETENTION_DAYS: intFrom(30, 1),
  SCHEDULER_CATCHUP_WINDOW_SECONDS: intFrom(300, 0),
  WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: intFrom(600, 1),
  WORKER_POLL_INTERVAL_MS: intFrom(1000, 50),
  WORKER_BATCH_SIZE: intFrom(500, 1),
  TEST_DATABASE: z.enum(['sqlite', 'postgresql']).optional().transform((v) => v ?? 'sqlite'),
  TEST_POSTGRES_URL: z.string().optional().transform((v) => v || 'postgresql://scheduler:scheduler@127.0.0.1:5432/postgres'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).optional().transform((v) => v ?? 'info'),
});

/** A 32-byte key written as 64 hex digits or base64 (SCHEDULER_SECRET_KEY), or null. */
export function decodeKey(text: string): Buffer | null {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : null;
  return bytes && bytes.length === 32 ? bytes : null;
}

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
  /** Most PostgreSQL connections one process opens (node-postgres pool `max`). Default 10. Ignored for SQLite. */
  databasePoolSize: number;
  bootstrapApiKey: string | undefined;
  /** Password of the seeded operator account (SCHEDULER_DEMO_PASSWORD), applied at every seed; when
   * unset the seed generates one for an account without a password and prints it once. */
  demoPassword: string | undefined;
  /**
   * The access key pair the seed creates or updates for org `acme-corp` with `write`
   * (SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID + SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY, both or neither), or null.
   */
  bootstrapAccessKey: { accessKeyId: string; secretAccessKey: string } | null;
  /**
   * The server key that encrypts access key secrets at rest (SPEC §14): SCHEDULER_SECRET_KEY when set
   * (32 bytes), otherwise read from — or generated on first start into — `secretKeyFile` (mode 0600).
   */
  secretKey: Buffer | null;
  /** Where the generated server key lives when SCHEDULER_SECRET_KEY is unset. Default `./data/scheduler-secret.key`. */
  secretKeyFile: string;
  limits: Limits;
  worker: {
    /** Longest pause between two ticks when nothing is due, in ms (≥ 50). Default 1000. The worker
     * wakes earlier when the earliest next_fire_at is sooner. */
    pollIntervalMs: number;
    /** Due occurrences claimed and fired in one transaction (≥ 1). Default 500. */
    batchSize: number;
  };
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Tests only: the dialect of the integration test databases (`TEST_DATABASE`, default `sqlite`). */
  testDatabase: 'sqlite' | 'postgresql';
  /** Tests only: a PostgreSQL URL whose role may CREATE DATABASE (`TEST_POSTGRES_URL`). */
  testPostgresUrl: string;
}

let cached: AppConfig | undefined;

/**
 * Parse the environment once. Throws an Error naming every bad variable.
 * Variables: PORT, HOSTNAME, DATABASE_URL, DATABASE_POOL_SIZE, SCHEDULER_BOOTSTRAP_API_KEY, SCHEDULER_DEMO_PASSWORD,
 * SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID, SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY, SCHEDULER_SECRET_KEY, SCHEDULER_SECRET_KEY_FILE,
 * SCHEDULER_SCHEDULES_PER_REVISION,
 * SCHEDULER_MIN_INTERVAL_SECONDS, SCHEDULER_RUN_RETENTION_DAYS, SCHEDULER_CATCHUP_WINDOW_SECONDS,
 * WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE, WORKER_POLL_INTERVAL_MS, WORKER_BATCH_SIZE, LOG_LEVEL;
 * tests only: TEST_DATABASE, TEST_POSTGRES_URL.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  if (cached && env === process.env) return cached;
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if ((e.SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID === undefined) !== (e.SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY === undefined)) {
    throw new Error('Invalid configuration:\n  SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID and SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY are set together or not at all');
  }
  const config: AppConfig = {
    port: e.PORT,
    hostname: e.HOSTNAME,
    databaseUrl: e.DATABASE_URL,
    dialect: /^postgres(ql)?:\/\//.test(e.DATABASE_URL) ? 'postgresql' : 'sqlite',
    databasePoolSize: e.DATABASE_POOL_SIZE,
    bootstrapApiKey: e.SCHEDULER_BOOTSTRAP_API_KEY,
    demoPassword: e.SCHEDULER_DEMO_PASSWORD,
    bootstrapAccessKey:
      e.SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID && e.SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY
        ? { accessKeyId: e.SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID, secretAccessKey: e.SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY }
        : null,
    secretKey: e.SCHEDULER_SECRET_KEY ? decodeKey(e.SCHEDULER_SECRET_KEY) : null,
    secretKeyFile: e.SCHEDULER_SECRET_KEY_FILE,
    limits: {
      schedulesPerRevision: e.SCHEDULER_SCHEDULES_PER_REVISION,
      minIntervalSeconds: e.SCHEDULER_MIN_INTERVAL_SECONDS,
      runRetentionDays: e.SCHEDULER_RUN_RETENTION_DAYS,
      catchupWindowSeconds: e.SCHEDULER_CATCHUP_WINDOW_SECONDS,
      executionsPerSessionPerMinute: e.WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE,
    },
    worker: { pollIntervalMs: e.WORKER_POLL_INTERVAL_MS, batchSize: e.WORKER_BATCH_SIZE },
    logLevel: e.LOG_LEVEL,
    testDatabase: e.TEST_DATABASE,
    testPostgresUrl: e.TEST_POSTGRES_URL,
  };
  if (env === process.env) cached = config;
  return config;
}

/** For tests that change limits between cases: forget the cached configuration. */
export function resetConfigCache(): void {
  cached = undefined;
}

/**
 * The one place that reads `process.env` (STYLE §2.7). Parsed once with zod into `AppConfig`,
 * which has no optional settings left, so no caller writes `?? default`.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_HOME_REGION, isAwsRegion } from './regions';

const intFrom = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      // Decimal digits only: `0x1680` or `1e3` are refused, not read as another number.
      const n = /^-?\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
        ctx.addIssue({ code: 'custom', message: `must be an integer ${range}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/**
 * `SCHEDULER_TRUSTED_PROXIES`: comma-separated addresses or CIDR blocks of the reverse proxies whose
 * `X-Forwarded-*` headers are believed (`10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`), or `loopback`
 * for 127.0.0.0/8 and ::1. Empty (the default): no proxy is trusted and those headers are ignored.
 * Each entry becomes `address/prefix`.
 */
const proxyList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const out: string[] = [];
    for (const raw of (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (raw === 'loopback') {
        out.push('127.0.0.0/8', '::1/128');
        continue;
      }
      const [addr, prefixText, extra] = raw.split('/');
      const family = isIP(addr);
      const max = family === 6 ? 128 : 32;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
        ctx.addIssue({ code: 'custom', message: `"${raw}" is not an IP address, a CIDR block or "loopback"` });
        return z.NEVER;
      }
      out.push(`${addr.toLowerCase()}/${prefix}`);
    }
    return out;
  });

/**
 * `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS` (SPEC §13.5): comma-separated org aliases or ids (trimmed,
 * lowercased, blanks ignored) whose `aws` targets may deliver with the worker's own AWS credentials.
 * Empty (the default): every org delivers with its assumed roles.
 */
const orgRefList = z
  .string()
  .optional()
  .transform((v) => [...new Set((v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))]);

/**
 * `SCHEDULER_HTTP_ALLOWED_HOSTS` (SPEC §13.1): comma-separated host names, IP addresses and CIDR
 * ranges that webhook destinations may reach although they are loopback, private, link-local,
 * multicast or cloud metadata addresses. Blank entries are ignored; anything else that is not a
 * host name, an IPv4/IPv6 address or a CIDR range is a configuration error naming the entry.
 */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;
const Ip = z.union([z.ipv4(), z.ipv6()]);
const Cidr = z.union([z.cidrv4(), z.cidrv6()]);
const AllowedHosts = z
  .string()
  .optional()
  .transform((v, ctx): HttpAllowList => {
    const list: HttpAllowList = { hosts: [], addresses: [], ranges: [] };
    for (const raw of (v ?? '').split(',')) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      const bare = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
      if (Ip.safeParse(bare).success) list.addresses.push(bare);
      else if (Cidr.safeParse(bare).success) list.ranges.push(bare);
      else if (HOSTNAME.test(entry)) list.hosts.push(entry.replace(/\.$/, ''));
      else ctx.addIssue({ code: 'custom', message: `"${raw.trim().slice(0, 80)}" is not a host name, an IP address or a CIDR range` });
    }
    return list;
  });

/**
 * Why DATABASE_URL is refused, or undefined when it is one this service speaks: `file:<path>` or a
 * plain path (SQLite), `postgres://…` / `postgresql://…` (PostgreSQL). A value wrapped in quotes (an
 * env file that keeps them) or with any other `scheme://` would otherwise be taken for a SQLite path.
 * The reason names the scheme only, never the value: it may hold a password (decision 399).
 */
function databaseUrlProblem(url: string): string | undefined {
  if (/^\s*["'`]/.test(url)) return 'is wrapped in quotes: give the value without them (systemd EnvironmentFile= and docker --env-file keep them)';
  if (/^postgres(ql)?:\/\//.test(url)) return postgresUrlProblem(url);
  if (/^file:/.test(url) || !url.includes('://')) return undefined;
  const scheme = url.slice(0, url.indexOf('://'));
  const named = /^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme) ? `the scheme "${scheme}"` : 'this scheme';
  return `${named} is not supported: use file:<path> (SQLite) or postgresql://… (PostgreSQL)`;
}

/** Shortest password a user may choose (the account page, invites, SCHEDULER_DEMO_PASSWORD); generated ones are longer. */
export const MIN_PASSWORD_LENGTH = 10;
/** Longest accepted password: bounds the work an attacker can ask the server to do. */
export const MAX_PASSWORD_LENGTH = 256;
/** Shortest secret an operator may set for a bearer credential (SCHEDULER_BOOTSTRAP_API_KEY, SCHEDULER_METRICS_TOKEN). */
const MIN_SECRET_LENGTH = 16;

/**
 * An optional text variable: unset or empty reads as undefined (trimmed first with `trim`); any other
 * value must pass `valid`, else the load fails with `problem`.
 */
const optionalText = (valid: (v: string) => boolean, problem: string, opts: { trim?: boolean } = {}) =>
  z
    .string()
    .optional()
    .transform((v) => (opts.trim ? v?.trim() : v) || undefined)
    .refine((v) => v === undefined || valid(v), problem);

/**
 * The longest delay a Node.js timer takes (2^31 − 1 ms, ~24.8 days): a longer one fires after 1 ms
 * (TimeoutOverflowWarning), so a huge "practically never" timeout would fail every statement at once.
 */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The defaults of DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS, in ms (lib/db
 * `PostgresTimeouts`, which also uses them for a client a caller opens without them).
 */
export const DEFAULT_POSTGRES_TIMEOUTS = { connectMs: 10_000, queryMs: 60_000 } as const;

const EnvSchema = z.object({
  PORT: intFrom(3000, 1, 65535),
  HOSTNAME: z.string().optional().transform((v) => v || '127.0.0.1'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => v || 'file:./data/scheduler.db')
    .superRefine((v, ctx) => {
      const problem = databaseUrlProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  DATABASE_POOL_SIZE: intFrom(10, 1),
  // lib/db `PostgresTimeouts`: waits for a connection, and for a statement's answer (0: no limit).
  DATABASE_CONNECT_TIMEOUT_MS: intFrom(DEFAULT_POSTGRES_TIMEOUTS.connectMs, 100, MAX_TIMER_MS),
  DATABASE_QUERY_TIMEOUT_MS: intFrom(DEFAULT_POSTGRES_TIMEOUTS.queryMs, 0, MAX_TIMER_MS),
  // `off` for a pooler in transaction mode that cannot keep prepared statements (lib/db/pg-prepared.ts).
  DATABASE_PREPARED_STATEMENTS: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v && v !== 'on' && v !== 'off') ctx.addIssue({ code: 'custom', message: `must be "on" or "off", got ${JSON.stringify(v.slice(0, 40))}` });
    })
    .transform((v) => v !== 'off'),
  // A key anyone can guess, or a password the account page itself would refuse, is refused at load.
  // Visible ASCII only: a header value loses its outer spaces, and one outside ASCII is read as latin1
  // by the server (and refused by fetch), so such a key could not be presented as set.
  SCHEDULER_BOOTSTRAP_API_KEY: optionalText((v) => v.length >= MIN_SECRET_LENGTH && /^[\x21-\x7e]+$/.test(v), `must be at least ${MIN_SECRET_LENGTH} characters of printable ASCII, without spaces`),
  SCHEDULER_DEMO_PASSWORD: optionalText((v) => v.length >= MIN_PASSWORD_LENGTH && v.length <= MAX_PASSWORD_LENGTH, `must be ${MIN_PASSWORD_LENGTH}–${MAX_PASSWORD_LENGTH} characters`),
  SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID: optionalText((v) => /^[A-Za-z0-9_.-]{3,128}$/.test(v), 'must be 3–128 characters from A-Z, a-z, 0-9, "_", ".", "-"'),
  SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY: optionalText((v) => v.length >= 8 && v.length <= 128 && !/\s/.test(v), 'must be 8–128 characters without spaces'),
  SCHEDULER_SECRET_KEY: optionalText((v) => decodeKey(v) !== null, 'must be 32 bytes, written as 64 hex digits or 44 base64 characters', { trim: true }),
  SCHEDULER_SECRET_KEY_FILE: z.string().optional().transform((v) => v || './data/scheduler-secret.key'),
  SCHEDULER_SCHEDULES_PER_REVISION: intFrom(1000, 1),
  SCHEDULER_MIN_INTERVAL_SECONDS: intFrom(60, 0),
  SCHEDULER_RUN_RETENTION_DAYS: intFrom(30, 1),
  SCHEDULER_CATCHUP_WINDOW_SECONDS: intFrom(300, 0),
  WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE: intFrom(600, 1),
  WORKFLOW_EXECUTION_RETENTION_DAYS: intFrom(30, 1),
  WORKER_POLL_INTERVAL_MS: intFrom(1000, 50, MAX_TIMER_MS),
  WORKER_BATCH_SIZE: intFrom(500, 1),
  WORKER_STOP_TIMEOUT_MS: intFrom(45_000, 1_000, 600_000),
  WORKER_TEST_CLOCK: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const m = /^(\d+):(\d+(?:\.\d+)?)$/.exec(v);
      if (!m || Number(m[2]) <= 0) {
        ctx.addIssue({ code: 'custom', message: `must be "<epoch ms>:<rate>", got "${v}"` });
        return z.NEVER;
      }
      return { epochMs: Number(m[1]), rate: Number(m[2]) };
    }),
  SCHEDULER_HTTP_ALLOWED_HOSTS: AllowedHosts,
  SCHEDULER_DELIVERY_CONCURRENCY: intFrom(64, 1),
  SCHEDULER_HOME_REGION: z
    .string()
    .optional()
    .transform((v) => v?.trim() || DEFAULT_HOME_REGION)
    .refine(isAwsRegion, 'must be an AWS region name such as us-east-1, eu-central-2, us-gov-west-1 or cn-north-1'),
  SCHEDULER_DELIVERY_ORG_CONCURRENCY: intFrom(16, 1),
  SCHEDULER_DELIVERY_SCHEDULE_CONCURRENCY: intFrom(4, 1),
  SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS: orgRefList,
  TEST_DATABASE: z.enum(['sqlite', 'postgresql']).optional().transform((v) => v ?? 'sqlite'),
  TEST_PORT_BASE: intFrom(0, 0),
  AWS_ENDPOINT_URL: z.string().optional().transform((v) => v || undefined),
  TEST_POSTGRES_URL: z.string().optional().transform((v) => v || 'postgresql://scheduler:scheduler@127.0.0.1:5432/postgres'),
  FC_SEED: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      // fast-check prints signed 32-bit seeds (`seed: -1183928372`).
      if (!/^-?\d+$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `must be an integer, got "${v}"` });
        return z.NEVER;
      }
      return Number(v);
    }),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).optional().transform((v) => v ?? 'info'),
  SCHEDULER_TRUSTED_PROXIES: proxyList,
  SCHEDULER_PUBLIC_URL: optionalText((v) => /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(v) && URL.canParse(v), 'must be an http(s) URL without query or fragment, such as https://scheduler.example.com', { trim: true }),
  SCHEDULER_HEARTBEAT_URL: optionalText((v) => /^https?:\/\//.test(v) && URL.canParse(v), 'must be an http(s) URL, such as https://hc-ping.com/<uuid>', { trim: true }),
  SCHEDULER_METRICS_TOKEN: optionalText((v) => v.length >= MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`, { trim: true }),
});

/** The `sslmode` values libpq defines, and node-postgres's own `no-verify`. */
const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

/**
 * Why a postgres(ql):// DATABASE_URL is surely a mistake, or undefined: a URL that does not parse, or
 * an `sslmode` no PostgreSQL client knows (a typo: node-postgres would quietly treat it as "use TLS"
 * and fail at the first statement, e.g. "The server does not support SSL connections"). A
 * Unix-socket URL with no host (`postgresql://user@/db?host=/var/run/postgresql`) is valid, as
 * node-postgres reads it. Names the parameter, never the URL (it may hold a password).
 */
function postgresUrlProblem(url: string): string | undefined {
  const parsed = postgresUrl(url);
  if (!parsed) return 'is not a valid postgresql:// URL';
  // Every value: node-postgres reads the last of a repeated parameter.
  for (const mode of parsed.searchParams.getAll('sslmode')) {
    if (!SSL_MODES.includes(mode)) return `sslmode "${mode.slice(0, 20)}" is not one of ${SSL_MODES.join(', ')}`;
  }
  return undefined;
}

/**
 * A postgres(ql):// URL parsed as WHATWG URL, or null when it does not parse. A Unix-socket URL with a
 * user and no host (`postgresql://user@/db?host=/run/postgresql`), which node-postgres reads, gets a
 * placeholder host first (WHATWG URL refuses it): read its path, query and user from the result,
 * never its host (the socket directory is `searchParams.get('host')`).
 */
export function postgresUrl(url: string): URL | null {
  const parseable = url.replace(/@\//, '@localhost/');
  return URL.canParse(parseable) ? new URL(parseable) : null;
}

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
  /**
   * Workflow executions older than this many days (by `created_at`) are swept, except one a kept run
   * record still links (`workflow.execution_retention_days`, default 30; docs/decisions.md 116).
   */
  executionRetentionDays: number;
}

/**
 * Destinations a webhook may reach although their address is refused by default (SPEC §13.1), from
 * `SCHEDULER_HTTP_ALLOWED_HOSTS`, lowercased. Empty lists when unset.
 */
export interface HttpAllowList {
  /** Host names as written in a target's URL (no trailing dot): any address they resolve to is allowed. */
  hosts: string[];
  /** Single IPv4 or IPv6 addresses (IPv6 without brackets). */
  addresses: string[];
  /** CIDR ranges such as `10.0.0.0/8` or `fd00::/8`. */
  ranges: string[];
}

export interface AppConfig {
  port: number;
  hostname: string;
  /** `file:<path>` (SQLite, the embedded default) or `postgresql://…`. */
  databaseUrl: string;
  dialect: 'sqlite' | 'postgresql';
  /** Most PostgreSQL connections one process opens (node-postgres pool `max`). Default 10. Ignored for SQLite. */
  databasePoolSize: number;
  /** PostgreSQL: lib/db/sql's driver statements sent prepared (DATABASE_PREPARED_STATEMENTS, `on` | `off`, default `on`). Ignored for SQLite. */
  databasePreparedStatements: boolean;
  /** PostgreSQL: ms to wait for a connection (DATABASE_CONNECT_TIMEOUT_MS, ≥ 100, default 10,000; lib/db `PostgresTimeouts`). Ignored for SQLite. */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: ms to wait for a statement's answer (DATABASE_QUERY_TIMEOUT_MS, default 60,000; 0: no limit). Ignored for SQLite. */
  databaseQueryTimeoutMs: number;
  /** The org API key the seed creates or updates for `acme-corp` (SCHEDULER_BOOTSTRAP_API_KEY, ≥ 16 chars), or undefined. */
  bootstrapApiKey: string | undefined;
  /** Password of the seeded operator account (SCHEDULER_DEMO_PASSWORD, 10–256 chars), applied at every seed; when
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
    /**
     * How long a graceful stop (SIGTERM / SIGINT) may take before the worker exits anyway, in ms
     * (1000–600000). Default 45000: under systemd's TimeoutStopSec=60s of the worker unit, above the
     * longest webhook timeout (30 s). Exiting then is what a crash is: nothing committed is lost, a
     * batch in hand rolls back and stays due, a delivery in flight is sent again after its lease.
     */
    stopTimeoutMs: number;
    /**
     * Tests only (`WORKER_TEST_CLOCK=<epoch ms>:<rate>`): the worker's clock runs `rate` times faster
     * than real time from the instant `epoch ms`, the same in every process given the same value
     * (`epoch + (real − epoch) × rate`), so crash tests see minutes of retry back-off in seconds.
     * Undefined: real time.
     */
    testClock: { epochMs: number; rate: number } | undefined;
  };
  delivery: {
    /** Webhook destinations allowed although private, loopback, … (`SCHEDULER_HTTP_ALLOWED_HOSTS`). */
    httpAllowList: HttpAllowList;
    /** Most outbound deliveries (webhooks and AWS calls together) in flight per process (≥ 1).
     * Default 64 (`SCHEDULER_DELIVERY_CONCURRENCY`); the rest wait their turn. */
    concurrency: number;
    /** Most deliveries of one org in flight per process (≥ 1, at most `concurrency`), so one tenant's
     * slow receivers leave slots to the others. Default 16 (`SCHEDULER_DELIVERY_ORG_CONCURRENCY`). */
    perOrg: number;
    /** Most deliveries of one schedule in flight per process (≥ 1, at most `perOrg`). Default 4
     * (`SCHEDULER_DELIVERY_SCHEDULE_CONCURRENCY`). */
    perSchedule: number;
    /** SPEC §13.5: the orgs (aliases or ids, lowercased) that may deliver with the worker's own AWS
     * credentials (`SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS`); empty by default. */
    awsWorkerCredentialsOrgs: string[];
  };
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * The region of the schedule groups the web app and the product API make (SCHEDULER_HOME_REGION,
   * default `us-east-1`; SPEC §14): a request to the EventBridge-compatible API signed for it sees them.
   */
  homeRegion: string;
  /** The HTTP edge (scripts/web-server.ts, lib/api/edge-guard.ts). */
  http: {
    /** CIDR blocks (`address/prefix`) of the reverse proxies whose `X-Forwarded-For`, `-Host` and
     * `-Proto` are believed (SCHEDULER_TRUSTED_PROXIES). Empty by default: the socket's address and the
     * `Host` header are used, and forwarded headers are dropped. */
    trustedProxies: string[];
    /** Bearer token `GET /metrics` requires (SCHEDULER_METRICS_TOKEN, ≥ 16 chars). Unset: `/metrics`
     * answers only requests from a loopback address. */
    metricsToken: string | undefined;
    /**
     * Where clients reach the web process (SCHEDULER_PUBLIC_URL, no trailing slash): the base of every
     * check-in URL (SPEC §16.1). Default `http://<HOSTNAME>:<PORT>` (127.0.0.1 for a wildcard HOSTNAME).
     */
    publicUrl: string;
  };
  /**
   * SPEC §17 dead man's switch (SCHEDULER_HEARTBEAT_URL): requested (GET) by the worker every minute
   * while it fires normally, so an outside monitor notices a scheduler that stopped. Undefined: none.
   */
  heartbeatUrl: string | undefined;
  /** Tests only: the dialect of the integration test databases (`TEST_DATABASE`, default `sqlite`). */
  testDatabase: 'sqlite' | 'postgresql';
  /** Tests only: a PostgreSQL URL whose role may CREATE DATABASE (`TEST_POSTGRES_URL`). */
  testPostgresUrl: string;
  /** Tests only: the fast-check seed to replay a property-test failure (`FC_SEED`); undefined: random. */
  testSeed: number | undefined;
  /** Tests only: the first of 40 loopback ports test receivers listen on (`TEST_PORT_BASE`); 0 = any free port. */
  testPortBase: number;
  /** Tests only: the AWS emulator the moto tests expect (`AWS_ENDPOINT_URL`). The AWS SDK reads its
   * own environment itself; nothing outside tests reads this. */
  testAwsEndpoint: string | undefined;
}

let cached: AppConfig | undefined;

/** What `loadConfig` throws: `problems` is one `<VARIABLE>: <why>` a bad variable, never a secret value. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * `loadConfig()` for an entry point: on a configuration error, hands `report` the problems (one line
 * each, e.g. `PORT: …`) and ends the process with exit code 1 — one clear line for the operator, no
 * stack trace (decision 399). Any other error is thrown as is.
 */
export function loadConfigOrExit(report: (problems: string[]) => void): AppConfig {
  try {
    return loadConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    report(e.problems);
    process.exit(1);
  }
}

/**
 * Parse the environment once. Throws an Error naming every bad variable.
 * Variables: PORT, HOSTNAME, DATABASE_URL, DATABASE_POOL_SIZE, DATABASE_PREPARED_STATEMENTS, DATABASE_CONNECT_TIMEOUT_MS,
 * DATABASE_QUERY_TIMEOUT_MS, SCHEDULER_BOOTSTRAP_API_KEY, SCHEDULER_DEMO_PASSWORD,
 * SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID, SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY, SCHEDULER_SECRET_KEY, SCHEDULER_SECRET_KEY_FILE,
 * SCHEDULER_SCHEDULES_PER_REVISION,
 * SCHEDULER_MIN_INTERVAL_SECONDS, SCHEDULER_RUN_RETENTION_DAYS, SCHEDULER_CATCHUP_WINDOW_SECONDS,
 * WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE, WORKFLOW_EXECUTION_RETENTION_DAYS, WORKER_POLL_INTERVAL_MS, WORKER_BATCH_SIZE, WORKER_STOP_TIMEOUT_MS, LOG_LEVEL,
 * SCHEDULER_TRUSTED_PROXIES, SCHEDULER_METRICS_TOKEN, SCHEDULER_PUBLIC_URL, SCHEDULER_HTTP_ALLOWED_HOSTS, SCHEDULER_DELIVERY_CONCURRENCY,
 * SCHEDULER_DELIVERY_ORG_CONCURRENCY, SCHEDULER_DELIVERY_SCHEDULE_CONCURRENCY, SCHEDULER_HOME_REGION, SCHEDULER_HEARTBEAT_URL;
 * tests only: TEST_DATABASE, TEST_POSTGRES_URL, FC_SEED, WORKER_TEST_CLOCK, TEST_PORT_BASE,
 * AWS_ENDPOINT_URL (read by the AWS SDK itself).
 *
 * Called at the edge only (the web app's and the API's `runtime()` in lib/api, the worker's and the
 * scripts' entry points, test helpers); the domain takes what it needs (`Limits`, a client) as arguments.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  if (cached && env === process.env) return cached;
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  if ((e.SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID === undefined) !== (e.SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(['SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID and SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY are set together or not at all']);
  }
  const config: AppConfig = {
    port: e.PORT,
    hostname: e.HOSTNAME,
    databaseUrl: e.DATABASE_URL,
    dialect: /^postgres(ql)?:\/\//.test(e.DATABASE_URL) ? 'postgresql' : 'sqlite',
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databaseQueryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
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
      executionRetentionDays: e.WORKFLOW_EXECUTION_RETENTION_DAYS,
    },
    worker: { pollIntervalMs: e.WORKER_POLL_INTERVAL_MS, batchSize: e.WORKER_BATCH_SIZE, stopTimeoutMs: e.WORKER_STOP_TIMEOUT_MS, testClock: e.WORKER_TEST_CLOCK },
    delivery: {
      httpAllowList: e.SCHEDULER_HTTP_ALLOWED_HOSTS,
      concurrency: e.SCHEDULER_DELIVERY_CONCURRENCY,
      perOrg: Math.min(e.SCHEDULER_DELIVERY_ORG_CONCURRENCY, e.SCHEDULER_DELIVERY_CONCURRENCY),
      perSchedule: Math.min(e.SCHEDULER_DELIVERY_SCHEDULE_CONCURRENCY, e.SCHEDULER_DELIVERY_ORG_CONCURRENCY, e.SCHEDULER_DELIVERY_CONCURRENCY),
      awsWorkerCredentialsOrgs: e.SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS,
    },
    logLevel: e.LOG_LEVEL,
    homeRegion: e.SCHEDULER_HOME_REGION,
    http: {
      trustedProxies: e.SCHEDULER_TRUSTED_PROXIES,
      metricsToken: e.SCHEDULER_METRICS_TOKEN,
      publicUrl: (e.SCHEDULER_PUBLIC_URL ?? `http://${['0.0.0.0', '::', ''].includes(e.HOSTNAME) ? '127.0.0.1' : e.HOSTNAME}:${e.PORT}`).replace(/\/+$/, ''),
    },
    heartbeatUrl: e.SCHEDULER_HEARTBEAT_URL,
    testDatabase: e.TEST_DATABASE,
    testPostgresUrl: e.TEST_POSTGRES_URL,
    testSeed: e.FC_SEED,
    testPortBase: e.TEST_PORT_BASE,
    testAwsEndpoint: e.AWS_ENDPOINT_URL,
  };
  if (env === process.env) cached = config;
  return config;
}

/**
 * The environment for a child process (the Prisma CLI, a worker or web process a test starts): this
 * process's variables with `overrides` on top. Children read their own configuration from it.
 */
export function childEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}

/**
 * The clock of `WORKER_TEST_CLOCK` (tests only): `epoch + (real − epoch) × rate`, so every process
 * given the same setting reads the same accelerated time. Real time when `testClock` is undefined.
 */
export function workerClock(testClock: { epochMs: number; rate: number } | undefined): () => Date {
  if (!testClock) return () => new Date();
  const { epochMs, rate } = testClock;
  return () => new Date(epochMs + (Date.now() - epochMs) * rate);
}

/**
 * The one structured log of every process (docs/ops.md "Logs"): one JSON object per line on stdout,
 * `{time, level, msg, service, requestId?, ...context}`:
 * - `time`: ISO 8601 UTC with milliseconds; `level`: `debug` < `info` < `warn` < `error`;
 * - `service`: `web` (scripts/web-server.ts and the Next.js code it runs) or `worker` (worker/main.ts);
 * - `requestId`: the web request's id while code runs for a request (`withRequestContext`), else absent;
 * - then the call's own context fields (a field named like one of the above is written as `ctx_<name>`).
 *
 * The process's settings and the request context live on `globalThis` (one `Symbol.for` key): the web
 * process loads this module twice (once through tsx for scripts/web-server.ts, once inside the Next.js
 * bundle of the routes), and both copies must share the service, the level and the request context.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogService = 'web' | 'worker';
/** Context of one log line: JSON-serializable values (an `Error` is written as its message). */
export type LogFields = Record<string, unknown>;

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const RESERVED = new Set(['time', 'level', 'msg', 'service', 'requestId']);

/** What code running for one web request can read (scripts/web-server.ts sets it per request). */
export interface RequestContext {
  /** The request's id, also answered as `X-Request-Id`. */
  requestId: string;
}

interface LogState {
  service: LogService;
  level: LogLevel;
  write: (line: string) => void;
  requests: AsyncLocalStorage<RequestContext>;
  /** Set by `logProcessWarnings`: whether this log took the place of Node's warning printer (false: Node prints none). */
  warnings?: boolean;
}

const STATE_KEY = Symbol.for('scheduler.log.state');

function state(): LogState {
  const g = globalThis as { [STATE_KEY]?: LogState };
  // Defaults until the process's entry point calls configureLog: service `web`, level `info`, stdout.
  g[STATE_KEY] ??= { service: 'web', level: 'info', write: (line) => void process.stdout.write(`${line}\n`), requests: new AsyncLocalStorage() };
  return g[STATE_KEY];
}

/**
 * Set the process's service name and least severe level written (LOG_LEVEL, `loadConfig().logLevel`),
 * once, at the entry point (scripts/web-server.ts, worker/main.ts). `write` replaces stdout (tests).
 */
export function configureLog(opts: { service?: LogService; level?: LogLevel; write?: (line: string) => void }): void {
  const s = state();
  if (opts.service) s.service = opts.service;
  if (opts.level) s.level = opts.level;
  if (opts.write) s.write = opts.write;
}

/** Whether a line at `level` would be written under the configured level. */
export function logEnabled(level: LogLevel): boolean {
  return SEVERITY[level] >= SEVERITY[state().level];
}

/**
 * One log line as text (no newline): the fixed fields first, then `fields` in their order. `time` is
 * UTC; an `Error` value becomes its message; a field named like a fixed one is written as `ctx_<name>`.
 */
export function formatLogLine(entry: { time: Date; level: LogLevel; msg: string; service: LogService; requestId?: string; fields?: LogFields }): string {
  const line: Record<string, unknown> = { time: entry.time.toISOString(), level: entry.level, msg: entry.msg, service: entry.service };
  if (entry.requestId) line.requestId = entry.requestId;
  for (const [k, v] of Object.entries(entry.fields ?? {})) {
    if (v === undefined) continue;
    line[RESERVED.has(k) ? `ctx_${k}` : k] = v instanceof Error ? v.message : v;
  }
  return JSON.stringify(line);
}

/** Write one line at `level` (skipped below the configured level), with the current request's id. */
export function log(level: LogLevel, msg: string, fields?: LogFields): void {
  if (!logEnabled(level)) return;
  const s = state();
  s.write(formatLogLine({ time: new Date(), level, msg, service: s.service, requestId: s.requests.getStore()?.requestId, fields }));
}

/** `log` by level: `logger.error('unhandled API error', { error: err.message })`. */
export const logger = {
  debug: (msg: string, fields?: LogFields) => log('debug', msg, fields),
  info: (msg: string, fields?: LogFields) => log('info', msg, fields),
  warn: (msg: string, fields?: LogFields) => log('warn', msg, fields),
  error: (msg: string, fields?: LogFields) => log('error', msg, fields),
};

/**
 * Write the process's warnings (`process.emitWarning`: a deprecation, a library's notice such as the
 * AWS SDK's Node.js support warning) as `warn` lines of this log, `{msg: "process warning", warning:
 * <its type: "Warning" for a plain one>, code?, detail: <message>}`, instead of Node's default text
 * on stderr, which spans several lines. Where Node would print none (`--no-warnings`,
 * `NODE_NO_WARNINGS=1`: Node then installs no printer), none is written; `--no-deprecation` stops
 * deprecations before they are emitted. Each entry point calls it once after `configureLog`
 * (scripts/web-server.ts, worker/main.ts); later calls do nothing. Only Node's own printer is
 * removed; other `warning` listeners stay.
 */
export function logProcessWarnings(): void {
  const s = state();
  if (s.warnings !== undefined) return;
  const printers = process.listeners('warning').filter((listener) => listener.name === 'onWarning');
  s.warnings = printers.length > 0;
  if (!s.warnings) return;
  for (const printer of printers) process.off('warning', printer);
  process.on('warning', (w: Error & { code?: string }) => log('warn', 'process warning', { warning: w.name, code: w.code, detail: w.message }));
}

/** Run `fn` with `ctx` as the request context of everything it calls, synchronously or later (AsyncLocalStorage). */
export function withRequestContext<T>(ctx: RequestContext, fn: () => T): T {
  return state().requests.run(ctx, fn);
}

/** The id of the web request the caller runs for, or undefined outside one. */
export function currentRequestId(): string | undefined {
  return state().requests.getStore()?.requestId;
}

/** An incoming `X-Request-Id` is taken when it is 1–128 of `A-Z a-z 0-9 . _ -`; anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The id of a request: the client's (or proxy's) `X-Request-Id` when it is sane (one value matching
 * `[A-Za-z0-9._-]{1,128}`), else a new random UUID. Never echoes anything that could split a log line
 * or a header.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}

/**
 * The CLI's only way to the product: the HTTP API of SPEC §3 (`POST /api/v1/revisions/{id}/data`) and
 * discovery (SPEC §3.3), authenticated with `X-API-Key`. No database access (STYLE §5).
 */
import type { z } from 'zod';
import type { Run, RunListPage, Schedule, ScheduleListPage } from '../lib/schedules/contract';
import type { BlobDescription } from '../lib/workflows/contract';

/** A refusal from the API: the HTTP status and the SPEC error `{code, message, path?}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly path?: string;

  constructor(status: number, code: string, message: string, path?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

/** A problem the CLI reports and stops on (exit code 1): unreachable server, bad options, bad input. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export interface ClientOptions {
  /** Base URL of the web app, e.g. `http://127.0.0.1:3000` (a trailing `/` is ignored). */
  url: string;
  apiKey: string;
  /** Injected for tests; defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

/** Engines of SPEC §3. */
export type Engine = 'scheduler_blobhub' | 'workflow_blobhub';

/** A thin typed client over the SPEC §3 endpoints. Every method throws `ApiError` on a refusal and `CliError` when the server cannot be reached. */
export class ApiClient {
  private readonly base: string;
  private readonly apiKey: string;
  private readonly fetchFn: typeof fetch;

  constructor(opts: ClientOptions) {
    this.base = opts.url.replace(/\/+$/, '');
    this.apiKey = opts.apiKey;
    this.fetchFn = opts.fetch ?? fetch;
  }

  /** `GET /api/v1/orgs/{org}/blobs/{blob}` (org and blob by id or alias). */
  describeBlob(org: string, blob: string): Promise<BlobDescription> {
    return this.request<BlobDescription>('GET', `/api/v1/orgs/${encodeURIComponent(org)}/blobs/${encodeURIComponent(blob)}`);
  }

  /** One command on a revision: `{engine, command, ...params}`. */
  command<T>(revisionId: string, engine: Engine, command: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.request<T>('POST', `/api/v1/revisions/${encodeURIComponent(revisionId)}/data`, { engine, command, ...params });
  }

  /** Every schedule of a scheduler revision, following `last_schedule_id` over 50-a-page pages (SPEC §3.1). */
  async listAllSchedules(revisionId: string): Promise<Schedule[]> {
    const all: Schedule[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: z.infer<typeof ScheduleListPage> = await this.command(revisionId, 'scheduler_blobhub', 'list_schedules', cursor ? { start_schedule_id: cursor } : {});
      all.push(...page.schedules);
      // An empty page or a missing cursor ends the walk; so does a short page (the last one).
      if (!page.last_schedule_id || page.schedules.length === 0) return all;
      cursor = page.last_schedule_id;
    }
  }

  /** The newest run of a schedule (first page of `list_executions`), or null when it never fired. */
  async latestRun(revisionId: string, scheduleId: string): Promise<Run | null> {
    const page = await this.command<z.infer<typeof RunListPage>>(revisionId, 'scheduler_blobhub', 'list_executions', { schedule_id: scheduleId });
    return page.executions[0] ?? null;
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await this.fetchFn(this.base + path, {
        method,
        headers: { 'x-api-key': this.apiKey, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch (e) {
      const cause = e instanceof Error ? ((e.cause as { code?: string } | undefined)?.code ?? e.message) : String(e);
      throw new CliError(`cannot reach ${this.base}: ${cause}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new ApiError(res.status, 'invalid_response', `${method} ${path} answered ${res.status} with a body that is not JSON`);
    }
    if (!res.ok) {
      const err = (json as { error?: { code?: string; message?: string; path?: string } }).error;
      throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `${method} ${path} answered ${res.status}`, err?.path);
    }
    return json as T;
  }
}

/**
 * Where the CLI talks to and which scheduler it addresses: flags first, then the environment
 * (`SCHEDULER_URL`, `SCHEDULER_API_KEY`, `SCHEDULER_REVISION`), then the manifest's `scheduler:`.
 * This is the CLI's one reader of `process.env` (the web app's is `lib/config`).
 */
import { ApiClient, CliError } from './client';
import type { ManifestScheduler } from './manifest';

/** The connection and addressing flags every server command accepts. */
export interface ConnectionFlags {
  url?: string;
  apiKey?: string;
  revision?: string;
  scheduler?: string;
}

/** The scheduler a command works on. */
export interface SchedulerTarget {
  /** The scheduler's one managed revision (SPEC §1): where every scheduler command goes. */
  revisionId: string;
  /** How the user named it, for messages: `acme-corp/ops-scheduler` or `revision <id>`. */
  label: string;
}

/** Default base URL: the web app's default port on this machine. */
export const DEFAULT_URL = 'http://127.0.0.1:3000';

/**
 * The API client for `flags` (`--url` / `SCHEDULER_URL`, default `http://127.0.0.1:3000`;
 * `--api-key` / `SCHEDULER_API_KEY`, required).
 * @throws CliError when no API key is given.
 */
export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): ApiClient {
  const url = flags.url ?? env.SCHEDULER_URL ?? DEFAULT_URL;
  const apiKey = flags.apiKey ?? env.SCHEDULER_API_KEY;
  if (!apiKey) throw new CliError('no API key: pass --api-key <key> or set SCHEDULER_API_KEY');
  return new ApiClient({ url, apiKey });
}

/** Split `org/blob` (`--scheduler`). @throws CliError when it is not exactly two non-empty parts. */
export function parseSchedulerRef(ref: string): ManifestScheduler {
  const parts = ref.split('/');
  if (parts.length !== 2 || !parts[0].trim() || !parts[1].trim()) {
    throw new CliError(`--scheduler must be <org>/<blob> (ids or aliases), got "${ref}"`);
  }
  return { org: parts[0].trim(), blob: parts[1].trim() };
}

/**
 * The scheduler to address: `--revision`, else `--scheduler org/blob`, else `SCHEDULER_REVISION`, else
 * the manifest's `scheduler: {org, blob}`. An `org/blob` is resolved through discovery
 * (`GET /api/v1/orgs/{org}/blobs/{blob}` → `default_revision_id`, SPEC §3.3).
 * @throws CliError when nothing names a scheduler, both flags are given, or the blob is not a scheduler; ApiError from discovery.
 */
export async function resolveScheduler(
  client: ApiClient,
  flags: ConnectionFlags,
  manifestScheduler?: ManifestScheduler,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SchedulerTarget> {
  if (flags.revision && flags.scheduler) throw new CliError('give either --revision or --scheduler, not both');
  if (flags.revision) return { revisionId: flags.revision, label: `revision ${flags.revision}` };
  const ref = flags.scheduler ? parseSchedulerRef(flags.scheduler) : undefined;
  if (!ref && env.SCHEDULER_REVISION) return { revisionId: env.SCHEDULER_REVISION, label: `revision ${env.SCHEDULER_REVISION}` };
  const named = ref ?? manifestScheduler;
  if (!named) {
    throw new CliError('no scheduler: pass --revision <id> or --scheduler <org>/<blob>, set SCHEDULER_REVISION, or add `scheduler: {org, blob}` to the manifest');
  }
  const label = `${named.org}/${named.blob}`;
  const blob = await client.describeBlob(named.org, named.blob).catch((e: unknown) => {
    if ((e as { status?: number }).status === 404) throw new CliError(`scheduler ${label} not found (or this API key cannot read it)`);
    throw e;
  });
  if (blob.type !== 'scheduler') throw new CliError(`${label} is a ${blob.type} blob, not a scheduler`);
  if (!blob.default_revision_id) throw new CliError(`scheduler ${label} has no revision`);
  return { revisionId: blob.default_revision_id, label };
}

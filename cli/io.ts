/** What every command shares: output streams, exit codes, reading the manifest, reporting errors. */
import { existsSync, readFileSync } from 'node:fs';
import { ApiError, CliError } from './client';
import { ManifestError, parseManifest, parseManifestSource, type Manifest, type ManifestScheduler } from './manifest';
import { showProblems } from './render';

/** Exit codes: 0 ok (and "no differences"), 1 error, 2 differences found (`diff`). */
export const EXIT = { ok: 0, error: 1, differs: 2 } as const;

/** Where a command writes: stdout for results, stderr for problems. Injected by tests. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** The process's streams. */
export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Default manifest path (relative to the working directory). */
export const DEFAULT_MANIFEST = 'schedules.yaml';

/**
 * Read and validate the manifest at `file`.
 * @throws CliError when the file cannot be read; ManifestError when it is invalid.
 */
export function loadManifest(file: string): Manifest {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read manifest ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  return parseManifest(text, file);
}

/**
 * The `scheduler:` of the manifest at `file` if the file exists and names one, read leniently (the
 * schedules need not be valid): how `ls` and `pull` find the scheduler when no flag names it.
 */
export function schedulerOfFile(file: string): ManifestScheduler | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const root = parseManifestSource(readFileSync(file, 'utf8'), file).doc.toJS() as { scheduler?: { org?: unknown; blob?: unknown } } | null;
    const s = root?.scheduler;
    return typeof s?.org === 'string' && typeof s.blob === 'string' ? { org: s.org, blob: s.blob } : undefined;
  } catch {
    return undefined;
  }
}

/** Print any error the way the CLI reports it and return exit code 1. Unknown errors keep their stack out of the way. */
export function reportError(io: Io, e: unknown): number {
  if (e instanceof ManifestError) {
    for (const line of showProblems(e.file, e.problems)) io.err(line);
    io.err(`${e.file}: ${e.problems.length} problem${e.problems.length === 1 ? '' : 's'}; nothing was sent to the server`);
  } else if (e instanceof ApiError) {
    io.err(`error: ${e.code}${e.path ? ` at ${e.path}` : ''}: ${e.message} (HTTP ${e.status})`);
  } else if (e instanceof CliError) {
    io.err(`error: ${e.message}`);
  } else {
    io.err(`error: ${e instanceof Error ? e.message : String(e)}`);
  }
  return EXIT.error;
}

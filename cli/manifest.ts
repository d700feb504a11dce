/**
 * The schedules manifest (docs/cli.md): a YAML file with an optional `scheduler: {org, blob}` and a
 * `schedules:` map from schedule alias to a schedule in the API's own fields (SPEC §5.1, §6), without
 * `alias` (the key is the alias). Every entry is validated by the API's own schema
 * (`ScheduleCreateInput`, STYLE §2.3), and every problem names its line.
 */
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { firstIssueError, ManifestAlertRule, SCHEDULE_INFO_FIELDS, ScheduleCreateInput } from '../lib/schedules/contract';
import { locate } from './yaml-locate';

/** One manifest entry, validated. */
export interface ManifestEntry {
  /** The map key: the schedule's alias. */
  alias: string;
  /** The entry with `alias` added, as `ScheduleCreateInput` parsed it (`input_data` defaulted to `[]`). */
  input: ScheduleCreateInput;
  /** 1-based line of the entry's key. */
  line: number;
}

/** `scheduler:` of the manifest: which scheduler blob the file describes. */
export interface ManifestScheduler {
  org: string;
  blob: string;
}

/** A parsed manifest document, kept for line lookups and for `pull` to edit in place. */
export interface ManifestSource {
  file: string;
  doc: Document;
  lineCounter: LineCounter;
}

export interface Manifest extends ManifestSource {
  scheduler?: ManifestScheduler;
  entries: ManifestEntry[];
  /** SPEC §17: the scheduler's alert rules (`alerts:`), or undefined when the manifest has no `alerts:` key. */
  alerts?: ManifestAlertRule[];
}

/** One problem in a manifest: where, which entry, the SPEC error code, the field path and the message. */
export interface ManifestProblem {
  line: number;
  col: number;
  /** The schedule alias (map key) at fault, when the problem is inside an entry. */
  alias?: string;
  /** SPEC §5.2 code (`invalid_request_body`, `invalid_cron_expression`, …) or `invalid_manifest`. */
  code: string;
  /** Dotted field path inside the entry, e.g. `invocation_target.target.session`. */
  path?: string;
  message: string;
}

/** A manifest that cannot be used; `problems` holds every problem found, in file order. */
export class ManifestError extends Error {
  readonly file: string;
  readonly problems: ManifestProblem[];

  constructor(file: string, problems: ManifestProblem[]) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
    this.name = 'ManifestError';
    this.file = file;
    this.problems = problems;
  }
}

/** `file:line: [alias: ]code: message` — one problem as the CLI prints it. */
export function formatProblem(file: string, p: ManifestProblem): string {
  return `${file}:${p.line}: ${p.alias ? `${p.alias}: ` : ''}${p.code}: ${p.message}`;
}

const SchedulerRef = z.object({ org: z.string().min(1), blob: z.string().min(1) }).strict();

/**
 * Parse YAML text into a document, keeping comments and source ranges.
 * @throws ManifestError (`invalid_yaml`) for a YAML syntax error, with its line.
 */
export function parseManifestSource(text: string, file: string): ManifestSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: false });
  if (doc.errors.length) {
    throw new ManifestError(
      file,
      doc.errors.map((e) => ({ line: e.linePos?.[0].line ?? 1, col: e.linePos?.[0].col ?? 1, code: 'invalid_yaml', message: e.message.split('\n')[0] })),
    );
  }
  return { file, doc, lineCounter };
}

/**
 * Parse and validate a manifest. Each entry is `{alias: key, ...value}` checked by `ScheduleCreateInput`
 * (the API's schema: strict keys, cron syntax, timezone, alias grammar, target rules). Checks that need
 * the server or the clock are the server's: `deploy` and `diff` ask it with a dry run (plan.ts).
 * @throws ManifestError with every problem found (all entries are checked, not just the first).
 */
export function parseManifest(text: string, file: string): Manifest {
  const src = parseManifestSource(text, file);
  const { doc, lineCounter } = src;
  const problems: ManifestProblem[] = [];
  const at = (path: (string | number)[]) => locate(doc, lineCounter, path);
  const problem = (path: (string | number)[], message: string, extra: Partial<ManifestProblem> = {}) =>
    problems.push({ ...at(path), code: 'invalid_manifest', message, ...extra });

  const root: unknown = doc.toJS();
  let scheduler: ManifestScheduler | undefined;
  let alerts: ManifestAlertRule[] | undefined;
  const entries: ManifestEntry[] = [];
  if (root === null || root === undefined) {
    problem([], 'the manifest is empty; it needs a top-level `schedules:` map');
  } else if (!isMap(doc.contents) || typeof root !== 'object' || Array.isArray(root)) {
    problem([], 'the manifest must be a map with `schedules:` (and optionally `scheduler:`)');
  } else {
    const top = root as Record<string, unknown>;
    for (const key of Object.keys(top)) {
      if (key !== 'schedules' && key !== 'scheduler' && key !== 'alerts') problem([key], `unknown top-level key "${key}"; expected "schedules" and optionally "scheduler" and "alerts"`);
    }
    if (top.scheduler !== undefined) {
      const s = SchedulerRef.safeParse(top.scheduler);
      if (s.success) scheduler = s.data;
      else problem(['scheduler', ...s.error.issues[0].path.map(String)], 'scheduler must be {org: <org id or alias>, blob: <scheduler blob id or alias>}');
    }
    if (top.alerts !== undefined) {
      if (!Array.isArray(top.alerts)) problem(['alerts'], '`alerts` must be a list of alert rules');
      else {
        alerts = [];
        top.alerts.forEach((value, i) => {
          const parsed = ManifestAlertRule.safeParse(value);
          if (parsed.success) alerts!.push(parsed.data);
          else {
            const e = firstIssueError(parsed.error);
            problems.push({ ...at(['alerts', i, ...(e.path?.split('.') ?? [])]), code: e.code, ...(e.path ? { path: e.path } : {}), message: e.message });
          }
        });
      }
    }
    if (!('schedules' in top)) {
      problem([], 'the manifest needs a top-level `schedules:` map (alias → schedule)');
    } else if (top.schedules !== null && (typeof top.schedules !== 'object' || Array.isArray(top.schedules))) {
      problem(['schedules'], '`schedules` must be a map from schedule alias to schedule');
    } else {
      const node = (doc.contents as { get(k: string, keep: true): unknown }).get('schedules', true);
      for (const pair of isMap(node) ? node.items : []) {
        if (!isScalar(pair.key) || typeof pair.key.value !== 'string') {
          const keyStart = (pair.key as { range?: [number, number, number] } | null)?.range?.[0];
          const pos = keyStart !== undefined ? lineCounter.linePos(keyStart) : at(['schedules']);
          problems.push({ ...pos, code: 'invalid_manifest', message: `schedule keys must be aliases (strings); got ${String(isScalar(pair.key) ? pair.key.value : pair.key)}` });
          continue;
        }
        const alias = pair.key.value;
        const result = validateEntry(alias, (top.schedules as Record<string, unknown>)[alias], (path) => at(['schedules', alias, ...path]));
        if ('problems' in result) problems.push(...result.problems);
        else entries.push({ alias, input: result.input, line: at(['schedules', alias]).line });
      }
    }
  }
  if (problems.length) throw new ManifestError(file, problems.sort((a, b) => a.line - b.line || a.col - b.col));
  return { ...src, scheduler, entries, ...(alerts ? { alerts } : {}) };
}

/**
 * Validate one entry `value` under `alias` with the API's schema. `at` maps a path inside the entry to
 * its source position. Pure. Returns the parsed input, or every problem (one per unknown key).
 */
export function validateEntry(
  alias: string,
  value: unknown,
  at: (path: (string | number)[]) => { line: number; col: number },
): { input: ScheduleCreateInput } | { problems: ManifestProblem[] } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problems: [{ ...at([]), alias, code: 'invalid_manifest', message: 'a schedule must be a map of schedule fields' }] };
  }
  if ('alias' in value) {
    return { problems: [{ ...at(['alias']), alias, code: 'invalid_request_body', path: 'alias', message: 'alias: the map key is the alias; remove the `alias` field' }] };
  }
  const parsed = ScheduleCreateInput.safeParse({ alias, ...value });
  if (parsed.success) return { input: parsed.data };
  const problems: ManifestProblem[] = [];
  for (const issue of parsed.error.issues) {
    // One problem per unknown key, so each names its own line.
    const split = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => ({ ...issue, keys: [k] })) : [issue];
    for (const one of split) {
      const e = firstIssueError(new z.ZodError([one]), SCHEDULE_INFO_FIELDS);
      const path = e.path?.split('.') ?? [];
      // The alias is the key itself: point at the key's line.
      problems.push({ ...at(path[0] === 'alias' ? [] : path), alias, code: e.code, path: e.path, message: e.message });
    }
  }
  return { problems };
}

/** Text output of the CLI: plans, drift, problems and tables. Pure: returns lines, prints nothing. */
import { DEFAULT_TARGET_TYPE, type InvocationTargetType, type Run, type Schedule } from '../lib/schedules/contract';
import { COMPARED_FIELDS, type FieldChange } from './diff';
import { FIELD_DEFAULTS, fieldApplies, isKeyedMap, isPlainObject, normalizeField, present, schemaAt, type ComparedField } from './fields';
import type { ManifestEntry, ManifestProblem } from './manifest';
import { formatProblem } from './manifest';
import type { DeployPlan } from './plan';

/** A value as the diff shows it: JSON, or `(none)` when absent. */
export function showValue(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v);
}

/** `invocation_target.target.session: "a" → "b"`; a field left at its default shows the default (`enabled: false → true`). */
export function showChange(c: FieldChange): string {
  const shown = (v: unknown) => (v === undefined && c.path.length === 1 ? FIELD_DEFAULTS[c.path[0] as ComparedField] : v);
  return `${c.path.join('.')}: ${showValue(shown(c.from))} → ${showValue(shown(c.to))}`;
}

/** `path: value` lines of `value`'s leaves: the maps the schema knows are walked, anything else is one line. */
function leafLines(type: InvocationTargetType, path: (string | number)[], value: unknown, out: string[]): void {
  const v = present(value);
  if (v === undefined) return;
  if (isPlainObject(v) && isKeyedMap(schemaAt(type, path))) {
    for (const [k, leaf] of Object.entries(v)) leafLines(type, [...path, k], leaf, out);
  } else {
    out.push(`${path.join('.')}: ${showValue(v)}`);
  }
}

/** The fields a create sends, one `path: value` line per leaf, in canonical order; defaults left out. */
export function showCreate(entry: ManifestEntry): string[] {
  const lines: string[] = [];
  const input = entry.input as Record<string, unknown>;
  const type = (input.invocation_target_type ?? DEFAULT_TARGET_TYPE) as InvocationTargetType;
  for (const field of COMPARED_FIELDS) {
    if (fieldApplies(field, input.enabled !== false)) leafLines(type, [field], normalizeField(field, input[field]), lines);
  }
  return lines;
}

/**
 * A schedule in the CLI's lines: its alias (the manifest's key, SPEC §11), else its name (every
 * schedule has one, SPEC §14: an EventBridge API schedule's `Name`, else its id).
 */
export function scheduleLabel(s: Pick<Schedule, 'alias' | 'name'>): string {
  return s.alias ?? s.name;
}

/** One drift line: a deployed schedule the manifest does not (or cannot) list. */
export function showDrift(s: Schedule): string {
  return s.alias === undefined
    ? `! drift: schedule ${s.name === s.id ? s.id : `${s.name} (${s.id})`} has no alias, so no manifest entry can describe it; left alone`
    : `! drift: ${s.alias} (${s.id}) is deployed but not in the manifest; left alone`;
}

/** Every problem as `file:line: alias: code: message`. */
export function showProblems(file: string, problems: readonly ManifestProblem[]): string[] {
  return problems.map((p) => formatProblem(file, p));
}

/** The plan, field by field: sessions to create, creates, updates, drift, and a one-line summary. */
export function showPlan(plan: DeployPlan, entries: readonly ManifestEntry[]): string[] {
  const lines: string[] = [];
  const byAlias = new Map(entries.map((e) => [e.alias, e]));
  for (const s of plan.sessionsToCreate) {
    lines.push(`+ session ${s.alias} in ${s.blobLabel} (revision ${s.revisionId}), needed by ${s.forAliases.join(', ')}`);
  }
  for (const e of plan.entries) {
    if (e.kind === 'create') {
      lines.push(`+ create ${e.alias}`);
      const entry = byAlias.get(e.alias);
      if (entry) lines.push(...showCreate(entry).map((l) => `    ${l}`));
    } else if (e.kind === 'update') {
      lines.push(`~ update ${e.alias} (${e.schedule.id})`);
      lines.push(...e.changes.map((c) => `    ${showChange(c)}`));
    }
  }
  lines.push(...plan.drift.map(showDrift));
  lines.push(summary(plan));
  return lines;
}

/** `2 to create, 1 to update, 3 unchanged, 1 session to create, 1 drift`. */
export function summary(plan: DeployPlan): string {
  const creates = plan.entries.filter((e) => e.kind === 'create').length;
  const updates = plan.entries.filter((e) => e.kind === 'update').length;
  const parts = [`${creates} to create`, `${updates} to update`, `${plan.unchangedCount} unchanged`];
  if (plan.sessionsToCreate.length) parts.push(`${plan.sessionsToCreate.length} session${plan.sessionsToCreate.length === 1 ? '' : 's'} to create`);
  if (plan.drift.length) parts.push(`${plan.drift.length} drift`);
  return `Plan: ${parts.join(', ')}.`;
}

/** A left-aligned text table; `null`/empty cells print as `-`. */
export function table(header: readonly string[], rows: readonly (readonly (string | null | undefined)[])[]): string[] {
  const cells = [header, ...rows.map((r) => r.map((c) => (c == null || c === '' ? '-' : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => String(c ?? '').padEnd(widths[i])).join('  ').trimEnd());
}

/**
 * A run in `ls`'s LAST RUN column: its delivery status, then its outcome when the schedule expects
 * completion (SPEC §16.1: "success, timed_out" is a delivered run whose work never reported back),
 * and its occurrence (UTC, ISO 8601). `null`: the schedule never fired.
 */
export function showLastRun(run: Pick<Run, 'status' | 'scheduled_for' | 'outcome'> | null): string {
  if (!run) return 'never fired';
  return `${run.status}${run.outcome ? `, ${run.outcome}` : ''} @ ${run.scheduled_for}`;
}

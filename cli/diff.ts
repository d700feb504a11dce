/**
 * Manifest entry vs deployed schedule, on the writable fields only (SPEC §5.1), and the plan `deploy`
 * carries out. Pure: no I/O, no clock. Comparison rules (docs/cli.md "How entries are compared"):
 * - absent `description`/`start_date`/`end_date` equal absent; `enabled` defaults to true;
 *   `invocation_target.input_data` defaults to `[]` and compares as JSON (key order ignored);
 * - `start_date`/`end_date` compare as instants (`+01:00` and `Z` forms of one instant are equal);
 * - a pinned target's `session` (SPEC §6.1) is stored as the session id: a manifest alias that resolves
 *   to that id is equal;
 * - read-only fields (`id`, `state`, `next_fire_at`, …) and `invocation_target_type` are ignored.
 */
import { DEFAULT_TARGET_TYPE, targetContractOf, type Schedule, type ScheduleUpdateInput } from '../lib/schedules/contract';

/** The top-level writable fields compared, in the manifest's canonical key order (also `pull`'s). */
export const COMPARED_FIELDS = [
  'description',
  'repeat',
  'invocation_time',
  'cron_expression',
  'timezone',
  'start_date',
  'end_date',
  'enabled',
  'invocation_target',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

/** Key order inside `invocation_target`, `target` and `workflow` (SPEC §6). */
export const TARGET_KEYS = ['target', 'workflow', 'input_data'] as const;
export const TARGET_REF_KEYS = ['org', 'blob', 'revision', 'session'] as const;
export const WORKFLOW_REF_KEYS = ['org', 'blob', 'revision', 'definition'] as const;

/** One differing leaf: `path` from the schedule root, the deployed value (`from`) and the manifest's (`to`). Undefined means absent. */
export interface FieldChange {
  path: (string | number)[];
  from: unknown;
  to: unknown;
}

/**
 * Answers whether the manifest's pinned `session` reference, in revision `revision`, names the session
 * whose id is `storedId`. Returns false when it does not know (the caller resolved what it could).
 */
export type PinnedSessionResolver = (revision: string, sessionRef: string, storedId: string) => boolean;

/** Loose manifest-side fields: a parsed entry, or the raw value of an entry `pull` is editing. */
export type DesiredFields = Partial<Record<ComparedField | 'alias' | 'invocation_target_type', unknown>>;

const OPTIONAL_CLEARABLE = new Set<ComparedField>(['description', 'start_date', 'end_date']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` compare equal. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** An ISO instant normalized to `YYYY-MM-DDTHH:mm:ss.sssZ`; anything else unchanged. */
export function normalizeInstant(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : new Date(ms).toISOString();
}

/** The manifest-side value with defaults applied (null means absent). */
function desiredValue(field: ComparedField, v: unknown): unknown {
  if (v === null) v = undefined;
  if (field === 'enabled') return v ?? true;
  if (field === 'start_date' || field === 'end_date') return normalizeInstant(v);
  return v;
}

function compareRef(
  keys: readonly string[],
  base: (string | number)[],
  deployed: unknown,
  wanted: unknown,
  out: FieldChange[],
  sessionEqual?: (wantedSession: unknown, deployedSession: unknown) => boolean,
): void {
  if (!isPlainObject(deployed) || !isPlainObject(wanted)) {
    if (canonicalJson(deployed) !== canonicalJson(wanted)) out.push({ path: base, from: deployed, to: wanted });
    return;
  }
  const all = [...keys, ...Object.keys(wanted).filter((k) => !keys.includes(k)), ...Object.keys(deployed).filter((k) => !keys.includes(k) && !(k in wanted))];
  for (const k of all) {
    const from = deployed[k] ?? undefined;
    const to = wanted[k] ?? undefined;
    if (k === 'session' && sessionEqual && sessionEqual(to, from)) continue;
    if (canonicalJson(from) !== canonicalJson(to)) out.push({ path: [...base, k], from, to });
  }
}

/**
 * Every differing leaf between the manifest's `desired` fields and the `deployed` schedule, in
 * canonical field order. `invocation_target` is compared per `target.*`, `workflow.*` key, and
 * `input_data` as a whole. Returns `[]` when the two are equal under the rules above.
 */
export function compareSchedule(desired: DesiredFields, deployed: Schedule, resolvePinned: PinnedSessionResolver): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of COMPARED_FIELDS) {
    if (field === 'invocation_target') {
      const w = desired.invocation_target;
      const d = deployed.invocation_target as unknown;
      // Another target type, or a type that does not run in the catalog (SPEC §13): the target compares as a whole.
      const wantedType = desired.invocation_target_type ?? DEFAULT_TARGET_TYPE;
      if (wantedType !== deployed.invocation_target_type || !targetContractOf(String(wantedType))?.catalogRef) {
        if (wantedType !== deployed.invocation_target_type || canonicalJson(w) !== canonicalJson(d)) out.push({ path: [field], from: d, to: w });
        continue;
      }
      if (!isPlainObject(w) || !isPlainObject(d)) {
        if (canonicalJson(w) !== canonicalJson(d)) out.push({ path: [field], from: d, to: w });
        continue;
      }
      const wantedTarget = w.target;
      const pinnedRevision = isPlainObject(wantedTarget) && typeof wantedTarget.revision === 'string' && wantedTarget.revision !== 'default' ? wantedTarget.revision : null;
      const sessionEqual = (to: unknown, from: unknown) =>
        pinnedRevision !== null && typeof to === 'string' && typeof from === 'string' && (to === from || resolvePinned(pinnedRevision, to, from));
      compareRef(TARGET_REF_KEYS, [field, 'target'], d.target, w.target, out, sessionEqual);
      compareRef(WORKFLOW_REF_KEYS, [field, 'workflow'], d.workflow, w.workflow, out);
      const wantedInput = w.input_data ?? [];
      const deployedInput = d.input_data ?? [];
      if (canonicalJson(wantedInput) !== canonicalJson(deployedInput)) out.push({ path: [field, 'input_data'], from: deployedInput, to: wantedInput });
      for (const k of Object.keys(w)) {
        if (!(TARGET_KEYS as readonly string[]).includes(k)) out.push({ path: [field, k], from: d[k], to: w[k] });
      }
      continue;
    }
    const from = desiredValue(field, deployed[field]);
    const to = desiredValue(field, desired[field]);
    if (canonicalJson(from) !== canonicalJson(to)) out.push({ path: [field], from, to });
  }
  return out;
}

/** The top-level fields touched by `changes`, in canonical order. */
export function changedFields(changes: readonly FieldChange[]): ComparedField[] {
  const touched = new Set(changes.map((c) => c.path[0]));
  return COMPARED_FIELDS.filter((f) => touched.has(f));
}

/**
 * The `update_schedule` body (without `schedule_id`) that makes the deployed schedule equal to the
 * entry: only the differing top-level fields; an absent optional field is sent as `null` (clears it);
 * absent `enabled` as `true`; `invocation_target` whole. An absent `cron_expression`/`invocation_time`
 * is left out (switching `repeat` drops it, SPEC §5.2).
 */
export function updateBody(desired: DesiredFields, changes: readonly FieldChange[]): ScheduleUpdateInput {
  const body: Record<string, unknown> = {};
  for (const field of changedFields(changes)) {
    const v = desired[field] ?? undefined;
    if (v !== undefined) body[field] = v;
    else if (OPTIONAL_CLEARABLE.has(field)) body[field] = null;
    else if (field === 'enabled') body[field] = true;
  }
  // A target travels with its type when the manifest names it or the type changes (an update's
  // target otherwise keeps the stored type).
  const wholeTarget = changes.some((c) => c.path[0] === 'invocation_target' && c.path.length === 1);
  if (body.invocation_target !== undefined && (desired.invocation_target_type !== undefined || wholeTarget)) body.invocation_target_type = desired.invocation_target_type ?? DEFAULT_TARGET_TYPE;
  return body as ScheduleUpdateInput;
}

/** One planned change for a manifest entry. */
export type EntryPlan =
  | { kind: 'create'; alias: string }
  | { kind: 'update'; alias: string; schedule: Schedule; changes: FieldChange[]; body: ScheduleUpdateInput }
  | { kind: 'unchanged'; alias: string; schedule: Schedule };

/** What `deploy` would do against `deployed`, and what it leaves alone. */
export interface Plan {
  entries: EntryPlan[];
  /** Deployed schedules the manifest does not list, or without an alias: reported, never touched. */
  drift: Schedule[];
}

/**
 * Match manifest entries to deployed schedules by alias and compare them. Pure.
 * `entries` are in manifest order; drift keeps the deployed (list) order.
 */
export function computePlan(entries: readonly { alias: string; input: DesiredFields }[], deployed: readonly Schedule[], resolvePinned: PinnedSessionResolver): Plan {
  const byAlias = new Map(deployed.filter((s) => s.alias !== undefined).map((s) => [s.alias as string, s]));
  const listed = new Set(entries.map((e) => e.alias));
  const plans: EntryPlan[] = entries.map((e) => {
    const schedule = byAlias.get(e.alias);
    if (!schedule) return { kind: 'create', alias: e.alias };
    const changes = compareSchedule(e.input, schedule, resolvePinned);
    if (!changes.length) return { kind: 'unchanged', alias: e.alias, schedule };
    return { kind: 'update', alias: e.alias, schedule, changes, body: updateBody(e.input, changes) };
  });
  return { entries: plans, drift: deployed.filter((s) => s.alias === undefined || !listed.has(s.alias)) };
}

/**
 * Manifest entry vs deployed schedule, on the writable fields only (SPEC §5.1), and the plan `deploy`
 * carries out. Pure: no I/O, no clock. The fields, their defaults and how an update clears one are
 * derived from the contract (cli/fields.ts). Comparison rules (docs/cli.md "How entries are compared"):
 * - every writable field but `alias` (the key) counts; read-only fields (`id`, `state`, `next_fire_at`, …) never do;
 * - absent, `null` and the field's default are equal (`enabled: true`, `invocation_target_type: workflow`,
 *   `flexible_time_window: {mode: off}`, `action_after_completion: none`); an empty list equals absent
 *   (`input_data` defaults to `[]`);
 * - instants compare as instants (`+01:00` and `Z` forms of one instant are equal);
 * - maps compare key by key (key order ignored), lists and scalars as JSON; a change of target type
 *   compares the target as a whole;
 * - a pinned target's `session` (SPEC §6.1) is stored as the session id: a manifest alias that resolves
 *   to that id is equal; a masked answer (`"••••"`, SPEC §13.5) equals any manifest value;
 * - `paused` (its `note`) counts only when the manifest's schedule is disabled.
 */
import { DEFAULT_TARGET_TYPE, targetContractOf, type InvocationTargetType, type Schedule, type ScheduleUpdateInput } from '../lib/schedules/contract';
import { canonicalJson, clearValue, COMPARED_FIELDS, fieldApplies, isKeyedMap, isPlainObject, MASKED_VALUE, normalizeField, present, schemaAt, type ComparedField } from './fields';

export { COMPARED_FIELDS, type ComparedField } from './fields';

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
export type DesiredFields = Partial<Record<ComparedField | 'alias', unknown>>;

/** Decides whether two leaves at `path` are equal although their JSON differs. */
type LeafEqual = (path: readonly (string | number)[], wanted: unknown, deployed: unknown) => boolean;

/**
 * Every differing leaf under `path`: the maps the schema knows key by key (the manifest's keys first),
 * everything else (lists, free JSON such as a webhook `body`) as JSON.
 */
function diffValues(type: InvocationTargetType, path: (string | number)[], deployed: unknown, wanted: unknown, leafEqual: LeafEqual, out: FieldChange[]): void {
  const d = present(deployed);
  const w = present(wanted);
  if (isPlainObject(d) && isPlainObject(w) && isKeyedMap(schemaAt(type, path))) {
    const keys = [...Object.keys(w), ...Object.keys(d).filter((k) => !(k in w))];
    for (const k of keys) diffValues(type, [...path, k], d[k], w[k], leafEqual, out);
    return;
  }
  if (canonicalJson(d) === canonicalJson(w) || leafEqual(path, w, d)) return;
  out.push({ path, from: d, to: w });
}

/**
 * Every differing leaf between the manifest's `desired` fields and the `deployed` schedule, in the
 * contract's field order. Returns `[]` when the two are equal under the rules above.
 */
export function compareSchedule(desired: DesiredFields, deployed: Schedule, resolvePinned: PinnedSessionResolver): FieldChange[] {
  const out: FieldChange[] = [];
  const raw = deployed as unknown as Record<string, unknown>;
  const wantedType = (normalizeField('invocation_target_type', desired.invocation_target_type) ?? DEFAULT_TARGET_TYPE) as InvocationTargetType;
  const wantedEnabled = normalizeField('enabled', desired.enabled) ?? true;
  const target = desired.invocation_target;
  // A pinned session exists only where a target runs in the catalog (SPEC §6.1).
  const pinnedRevision = targetContractOf(wantedType)?.catalogRef !== undefined && isPlainObject(target) && isPlainObject(target.target) && typeof target.target.revision === 'string' && target.target.revision !== 'default' ? target.target.revision : null;
  const leafEqual: LeafEqual = (path, w, d) => {
    const at = path.join('.');
    // SPEC §6.1: a pinned target stores its session as the id; the manifest may name it by alias.
    if (at === 'invocation_target.target.session') return pinnedRevision !== null && typeof w === 'string' && typeof d === 'string' && resolvePinned(pinnedRevision, w, d);
    // SPEC §13.5: header values are write-only; the answer says only that one is set.
    return path.length === 3 && at.startsWith('invocation_target.headers.') && d === MASKED_VALUE && typeof w === 'string';
  };
  for (const field of COMPARED_FIELDS) {
    if (!fieldApplies(field, wantedEnabled === true)) continue;
    const from = normalizeField(field, raw[field]);
    const to = normalizeField(field, desired[field]);
    // Another target type: the target differs as a whole (its keys mean something else).
    if (field === 'invocation_target' && wantedType !== deployed.invocation_target_type) {
      if (canonicalJson(from) !== canonicalJson(to)) out.push({ path: [field], from, to });
      continue;
    }
    diffValues(wantedType, [field], from, to, leafEqual, out);
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
 * entry: only the differing top-level fields, each whole. A field the manifest leaves out is cleared
 * (`null`, or its default where the API takes no `null`, e.g. `enabled: true`); a cadence field is
 * left out (switching `repeat` drops it, SPEC §5.2). `invocation_target` travels with its
 * `invocation_target_type`, so the update never reads it as the stored type.
 */
export function updateBody(desired: DesiredFields, changes: readonly FieldChange[]): ScheduleUpdateInput {
  const body: Record<string, unknown> = {};
  for (const field of changedFields(changes)) {
    const v = desired[field] ?? clearValue(field);
    if (v !== undefined) body[field] = v;
  }
  if (body.invocation_target !== undefined) body.invocation_target_type = desired.invocation_target_type ?? DEFAULT_TARGET_TYPE;
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

/** The plan of one entry from its `changes` against `schedule` (an update with no change is unchanged). */
export function entryPlan(alias: string, input: DesiredFields, schedule: Schedule, changes: FieldChange[]): EntryPlan {
  if (!changes.length) return { kind: 'unchanged', alias, schedule };
  return { kind: 'update', alias, schedule, changes, body: updateBody(input, changes) };
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
    return entryPlan(e.alias, e.input, schedule, compareSchedule(e.input, schedule, resolvePinned));
  });
  return { entries: plans, drift: deployed.filter((s) => s.alias === undefined || !listed.has(s.alias)) };
}

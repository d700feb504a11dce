/**
 * The writable fields of a schedule as the CLI treats them, DERIVED from the contract's schemas
 * (`SCHEDULE_WRITABLE_FIELDS`, `ScheduleUpdateInput`, `ScheduleSchema`, `TARGET_INPUT_SCHEMAS`), so a
 * field added to the contract is compared, pulled and deployed without a change here:
 * - which fields: every writable field but `alias` (the manifest key), in schema order (also `pull`'s);
 * - how an update clears a field the manifest leaves out: `null` where the update schema takes it, else
 *   the field's default below, else it is left out (a cadence field is dropped by switching `repeat`);
 * - which fields are instants (compared as instants): those the answer schema declares as `InstantSchema`;
 * - which part of an answered value is writable: the keys of the field's object schema (`paused`
 *   answers `{by, at, note, bulk}`; only `note` is written);
 * - key order inside a map: the order of its object schema.
 * Only the defaults the API omits from its answers are written out here (SPEC §5.1, §12.4, §12.5). Pure.
 */
import { z } from 'zod';
import {
  DEFAULT_TARGET_TYPE,
  SCHEDULE_WRITABLE_FIELDS,
  ScheduleSchema,
  ScheduleUpdateInput,
  TARGET_INPUT_SCHEMAS,
  type InvocationTargetType,
  type Schedule,
  type ScheduleWritableField,
} from '../lib/schedules/contract';
import { HEADER_MASK } from '../lib/targets/contract';
import { InstantSchema } from '../lib/workflows/contract';

/** A writable field the manifest holds: every one but `alias`, which is the entry's key. */
export type ComparedField = Exclude<ScheduleWritableField, 'alias'>;

/** The fields compared and pulled, in the contract's order (the canonical key order of an entry). */
export const COMPARED_FIELDS: readonly ComparedField[] = SCHEDULE_WRITABLE_FIELDS.filter((f): f is ComparedField => f !== 'alias');

/**
 * Values the API omits from its answers because they are the default, so a manifest writing them
 * equals one leaving them out; an update clears a field that takes no `null` by sending this value.
 */
export const FIELD_DEFAULTS: Partial<Record<ComparedField, unknown>> = {
  invocation_target_type: DEFAULT_TARGET_TYPE,
  enabled: true,
  flexible_time_window: { mode: 'off' },
  action_after_completion: 'none',
  overlap_policy: 'allow_all',
  paused: { note: null },
};

/**
 * Write-only values are answered masked (SPEC §13.5: an `http` target's header values answer as
 * `"••••"`); a masked answer cannot be compared, so it equals any manifest value.
 */
export const MASKED_VALUE = HEADER_MASK;

const UPDATE_SHAPE = ScheduleUpdateInput.shape as unknown as Record<ComparedField, z.ZodType>;
const ANSWER_SHAPE = ScheduleSchema.options[0].shape as unknown as Record<string, z.ZodType | undefined>;

/** `schema` without its optional / nullable / default wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { _zod: { def: { innerType?: z.ZodType } } };
  while (s._zod.def.innerType) s = s._zod.def.innerType as typeof s;
  return s;
}

/** The keys of `schema` when it is one object schema (after unwrapping), else null. */
function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | null {
  if (!schema) return null;
  const s = unwrap(schema);
  return s instanceof z.ZodObject ? (s.shape as Record<string, z.ZodType>) : null;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
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

/** Top-level fields the answer schema declares as instants (`start_date`, `end_date`, …). */
const INSTANT_FIELDS = new Set(COMPARED_FIELDS.filter((f) => ANSWER_SHAPE[f] !== undefined && unwrap(ANSWER_SHAPE[f] as z.ZodType) === InstantSchema));

/** `{k: v}` without keys whose value is null or undefined (one level). */
function withoutNulls(v: unknown): unknown {
  return isPlainObject(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined)) : v;
}

/**
 * A field's value in comparable form, from either side: null and the field's default are absent
 * (undefined); instants are normalized; an answered object keeps only its writable keys.
 */
export function normalizeField(field: ComparedField, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  let v: unknown = value;
  const shape = objectShape(UPDATE_SHAPE[field]);
  if (shape && isPlainObject(value)) v = Object.fromEntries(Object.keys(shape).filter((k) => k in value).map((k) => [k, value[k]]));
  if (INSTANT_FIELDS.has(field)) v = normalizeInstant(v);
  const fallback = FIELD_DEFAULTS[field];
  if (fallback !== undefined && canonicalJson(withoutNulls(v)) === canonicalJson(withoutNulls(fallback))) return undefined;
  return v;
}

/**
 * What an update sends for a field the manifest leaves out (SPEC §5.1 "null clears"): `null` when the
 * update schema takes it, else the field's default, else undefined (the field is not sent).
 */
export function clearValue(field: ComparedField): unknown {
  if (UPDATE_SHAPE[field].safeParse(null).success) return null;
  return FIELD_DEFAULTS[field];
}

/**
 * Whether `field` is compared for a schedule whose wanted `enabled` is `enabled`: `paused` belongs to a
 * disabled schedule only (SPEC §12.5: enabling clears it, and a note cannot be set on an enabled one).
 */
export function fieldApplies(field: ComparedField, enabled: boolean): boolean {
  return field !== 'paused' || !enabled;
}

/** The writable fields of a deployed schedule, in comparable form, absent ones left out. */
export function writableFields(s: Schedule): Partial<Record<ComparedField, unknown>> {
  const out: Partial<Record<ComparedField, unknown>> = {};
  const raw = s as unknown as Record<string, unknown>;
  for (const f of COMPARED_FIELDS) {
    if (!fieldApplies(f, s.enabled)) continue;
    const v = normalizeField(f, raw[f]);
    if (v !== undefined) out[f] = v;
  }
  return out;
}

/** The schema of the value at `path` inside an entry whose target is of type `type` (`invocation_target` by its type's schema). */
export function schemaAt(type: InvocationTargetType, path: readonly (string | number)[]): z.ZodType | undefined {
  if (!path.length) return undefined;
  let schema: z.ZodType | undefined = path[0] === 'invocation_target' ? TARGET_INPUT_SCHEMAS[type] : UPDATE_SHAPE[path[0] as ComparedField];
  for (const seg of path.slice(1)) {
    if (!schema) return undefined;
    const s = unwrap(schema) as z.ZodType & { _zod: { def: { type: string; valueType?: z.ZodType } } };
    schema = s._zod.def.type === 'record' ? s._zod.def.valueType : mapShape(s)?.[String(seg)];
  }
  return schema;
}

/**
 * The keys a map at a schema may hold, in schema order: an object schema's, or every option's of a
 * union of object schemas (`flexible_time_window`). Null for anything else (a record, free JSON).
 */
export function mapShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | null {
  const own = objectShape(schema);
  if (own || !schema) return own;
  const s = unwrap(schema) as z.ZodType & { _zod: { def: { type: string; options?: z.ZodType[] } } };
  if (s._zod.def.type !== 'union' || !s._zod.def.options) return null;
  const shapes = s._zod.def.options.map(objectShape);
  return shapes.every((x) => x !== null) ? Object.assign({}, ...shapes) : null;
}

/** Whether the value at a schema is a map compared key by key: an object schema, a union of them, or a record (`headers`). */
export function isKeyedMap(schema: z.ZodType | undefined): boolean {
  if (!schema) return false;
  return mapShape(schema) !== null || (unwrap(schema) as z.ZodType & { _zod: { def: { type: string } } })._zod.def.type === 'record';
}

/** An empty list at a schema key is absent (a defaulted `input_data: []`); inside free JSON it is a value. */
export const present = (v: unknown): unknown => (v === null || (Array.isArray(v) && v.length === 0) ? undefined : v);

/**
 * A deployed value for the manifest, at `path` inside an entry: the maps the schema knows, keys in
 * schema order (unknown keys last) and absent or empty-list keys dropped; anything else unchanged.
 */
export function manifestValueAt(type: InvocationTargetType, path: readonly (string | number)[], value: unknown): unknown {
  const schema = schemaAt(type, path);
  if (!isPlainObject(value) || (path.length && !isKeyedMap(schema))) return value;
  const order = path.length ? Object.keys(mapShape(schema) ?? {}) : [...COMPARED_FIELDS];
  const keys = [...order.filter((k) => k in value), ...Object.keys(value).filter((k) => !order.includes(k))];
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = present(value[k]);
    if (v !== undefined) out[k] = manifestValueAt(type, [...path, k], v);
  }
  return out;
}

/** The canonical key order of the map at `path` inside an entry (`[]`: the entry itself); `[]` when the schema there fixes none. */
export function keyOrderAt(type: InvocationTargetType, path: readonly (string | number)[]): readonly string[] {
  return path.length ? Object.keys(mapShape(schemaAt(type, path)) ?? {}) : [...COMPARED_FIELDS];
}

/**
 * THE REGISTRY of target types, universal half (SPEC §6, §13; STYLE §7): each type is named once,
 * in `TARGET_CONTRACTS`, and everything that speaks of targets iterates it — the schedule contract's
 * unions (`withTarget`), the run `result` shapes, the form, the history, the dead letters. The server
 * half (drivers: how each type is delivered) is lib/targets/index.ts. Universal: no I/O, no Node import.
 *
 * Outside lib/targets no code branches on a type's name (the lint rule `project/no-target-type-branch`
 * in eslint.config.mjs); it asks the registry (`targetContractOf`) instead.
 */
import { z } from 'zod';
import { AWS_TARGET } from './aws/contract';
import type { CatalogRef, TargetContract } from './define';
import { HTTP_TARGET } from './http/contract';
import { WORKFLOW_TARGET } from './workflow/contract';

/**
 * Every target type, in the order the form offers them. The first is the type a request may leave
 * `invocation_target_type` out for (`workflow`, the type before SPEC §13).
 */
export const TARGET_CONTRACTS = [WORKFLOW_TARGET, HTTP_TARGET, AWS_TARGET] as const;

type AnyTargetContract = (typeof TARGET_CONTRACTS)[number];

/** `invocation_target_type` (SPEC §5.1, §13): `workflow`, `http` or `aws`. */
export type InvocationTargetType = AnyTargetContract['type'];
export const INVOCATION_TARGET_TYPES = TARGET_CONTRACTS.map((c) => c.type) as [InvocationTargetType, ...InvocationTargetType[]];

/** The type a request may leave `invocation_target_type` out for (SPEC §5.1). */
export const DEFAULT_TARGET_TYPE = TARGET_CONTRACTS[0].type;
type DefaultTargetType = typeof DEFAULT_TARGET_TYPE;

/** `invocation_target_type` and its `invocation_target` as stored (SPEC §6, §13): one pair per target type. */
export type TargetFields = AnyTargetContract extends infer C
  ? C extends TargetContract<infer T, z.ZodType, infer Stored, readonly [z.ZodType, ...z.ZodType[]]>
    ? { invocation_target_type: T; invocation_target: z.output<Stored> }
    : never
  : never;

/**
 * A stored `invocation_target_type` and `invocation_target` as the contract pairs them (SPEC §6, §13),
 * typed by the type's registry entry: the JSON was parsed by that type's schema when it was saved, so
 * it is not parsed again on every read.
 */
export function storedTargetFields(type: string, target: unknown): TargetFields {
  return { invocation_target_type: type, invocation_target: target } as TargetFields;
}

/** The stored target of type `T`. */
export type TargetOf<T extends InvocationTargetType> = Extract<TargetFields, { invocation_target_type: T }>['invocation_target'];

const BY_TYPE = new Map<string, AnyTargetContract>(TARGET_CONTRACTS.map((c) => [c.type, c]));

/** The contract of target type `type`, or undefined for a name no contract declares. */
export function targetContractOf(type: string): AnyTargetContract | undefined {
  return BY_TYPE.get(type);
}

/** The contract of a stored target's type (typed: the pair narrows together). */
export function contractOfTarget(t: TargetFields): TargetContract<string, z.ZodType, z.ZodType<unknown>> {
  return BY_TYPE.get(t.invocation_target_type) as TargetContract<string, z.ZodType, z.ZodType<unknown>>;
}

/**
 * A stored target's address (SPEC §12.3 `TARGET_ARN`): as its type's contract names it (the URL, the
 * ARN, `workflow:<schedule id>`), or `<type>:<schedule id>` for a type no contract declares.
 */
export function targetAddress(type: string, target: unknown, scheduleId: string): string {
  const c = BY_TYPE.get(type) as TargetContract<string, z.ZodType, z.ZodType<unknown>> | undefined;
  return c ? c.address(target, scheduleId) : `${type}:${scheduleId}`;
}

/**
 * Where in the embedded catalog a target runs (its contract's `catalogRef`, SPEC §6.1), or null when
 * its type runs elsewhere (or is unknown). `invocation_target_type` may be left out (the default type).
 */
export function catalogRefOf(t: { invocation_target_type?: string; invocation_target: unknown }): CatalogRef | null {
  const c = BY_TYPE.get(t.invocation_target_type ?? DEFAULT_TARGET_TYPE) as TargetContract<string, z.ZodType, z.ZodType<unknown>> | undefined;
  return c?.catalogRef ? c.catalogRef(t.invocation_target) : null;
}

/**
 * Why the web form cannot edit a stored target (its contract's `words.notEditable`), or null. A type
 * no contract declares (a row written outside the product) cannot be edited either: the form has no
 * fields for it.
 */
export function targetNotEditable(t: TargetFields): { title: string; text: string } | null {
  if (!BY_TYPE.has(t.invocation_target_type)) {
    return {
      title: 'Unknown target type: not editable here.',
      text: `This schedule's target type "${t.invocation_target_type}" is not one this scheduler delivers to, so the form cannot show or change it. It can be read and deleted.`,
    };
  }
  return contractOfTarget(t).words.notEditable?.(t.invocation_target) ?? null;
}

/**
 * The target type an `invocation_target` sent without `invocation_target_type` reads as, to name its
 * problems: the first other type whose keys it has (`url` → `http`, `arn` → `aws`), else the default.
 */
export function targetTypeOf(target: Record<string, unknown>): InvocationTargetType {
  return TARGET_CONTRACTS.find((c) => c.type !== DEFAULT_TARGET_TYPE && c.looksLike(target))?.type ?? DEFAULT_TARGET_TYPE;
}

type Variant<C, S extends z.ZodRawShape, K extends 'save' | 'stored', OptionalDefault extends boolean> =
  C extends TargetContract<infer T, infer Save, infer Stored, readonly [z.ZodType, ...z.ZodType[]]>
    ? z.ZodObject<
        S & {
          invocation_target_type: OptionalDefault extends true ? (T extends DefaultTargetType ? z.ZodOptional<z.ZodLiteral<T>> : z.ZodLiteral<T>) : z.ZodLiteral<T>;
          invocation_target: K extends 'save' ? Save : Stored;
        },
        z.core.$strict
      >
    : never;

/**
 * `invocation_target_type` with its `invocation_target` (SPEC §6, §13), added to `shape`: one strict
 * variant per target type, discriminated by `invocation_target_type`. `stored` (a schedule, run or dead
 * letter as answered) takes each type's stored schema and needs the type; `save` (a request) takes
 * each type's save schema, `stored-save` the stored ones (the EventBridge API's saves, SPEC §14, and a
 * target kept as stored); in both a request may leave the default type out.
 */
export function withTarget<S extends z.ZodRawShape>(shape: S): z.ZodDiscriminatedUnion<Variant<AnyTargetContract, S, 'stored', false>[], 'invocation_target_type'>;
export function withTarget<S extends z.ZodRawShape>(shape: S, as: 'save'): z.ZodDiscriminatedUnion<Variant<AnyTargetContract, S, 'save', true>[], 'invocation_target_type'>;
export function withTarget<S extends z.ZodRawShape>(shape: S, as: 'stored-save'): z.ZodDiscriminatedUnion<Variant<AnyTargetContract, S, 'stored', true>[], 'invocation_target_type'>;
export function withTarget<S extends z.ZodRawShape>(shape: S, as: 'stored' | 'save' | 'stored-save' = 'stored') {
  const variants = TARGET_CONTRACTS.map((c) => {
    const literal = z.literal(c.type);
    return z.strictObject({
      ...shape,
      invocation_target_type: as !== 'stored' && c.type === DEFAULT_TARGET_TYPE ? literal.optional() : literal,
      invocation_target: as === 'save' ? c.save : c.stored,
    });
  });
  return z.discriminatedUnion('invocation_target_type', variants as [(typeof variants)[number], ...(typeof variants)[number][]]);
}

/** The `invocation_target` schema of each target type as a request sends it, by type (SPEC §6, §13). */
export const TARGET_INPUT_SCHEMAS = Object.fromEntries(TARGET_CONTRACTS.map((c) => [c.type, c.save])) as { [C in AnyTargetContract as C['type']]: C['save'] };

/** Any type's `invocation_target` as a request may send it (the OpenAPI document's view of `create_schedule`). */
export const AnyTargetSchema = z.union(TARGET_CONTRACTS.map((c) => c.save) as unknown as [AnyTargetContract['save'], ...AnyTargetContract['save'][]]);

type ResultSchema = AnyTargetContract['results'][number];
/** The `result` shapes of every target type's attempts (SPEC §8.1, §13), in registry order. */
export const TARGET_RESULT_SCHEMAS = TARGET_CONTRACTS.flatMap((c): ResultSchema[] => [...c.results]) as [ResultSchema, ...ResultSchema[]];

export type { CatalogRef, TargetContract, TargetWords } from './define';
export { backfillTrigger, PAYLOAD_MAX_BYTES, RUN_STATUSES, RUN_TRIGGERS, triggerParts, type FireTrigger, type RunStatus, type RunTrigger } from './define';
export * from './workflow/contract';
export * from './http/contract';
export * from './aws/contract';

// SPEC §13.4: the context attributes and their one substitution (universal: the form's preview uses it).
export { substituteContextAttributes, substituteInStrings, CONTEXT_ATTRIBUTE_TOKENS, MASKED_CHECKIN_TOKEN, type ContextAttributes } from './context-attributes';

/**
 * What every target type's universal contract declares (SPEC §6, §13; STYLE §7), and the helpers
 * their schemas share. Universal: no I/O, no Node import (the form, the API and the CLI load it).
 *
 * A target type is named once, in `TARGET_CONTRACTS` (lib/targets/contract.ts); the schedule
 * contract, the form, the history and the dead letters iterate that list and never branch on a
 * type's name (docs/architecture.md "Adding a target type").
 */
import type { FireTrigger } from '../db/contract';
import { z } from 'zod';

/**
 * Run statuses (SPEC §8.1): what an attempt of any target type ends as.
 * - `success`: the target took it (a workflow execution was created; a 2xx answer; AWS accepted it).
 * - `limit_exceeded`: a limit refused it; the schedule keeps firing.
 * - `invocation_error`: it failed: the target did not resolve or refused, or delivery failed.
 * - `skipped`: not delivered: an occurrence due while a run was in progress (SPEC §16.2 overlap policy).
 *
 * Every status a run can hold: `list_executions` and the grid's last run read one index range per
 * status listed here (runs(schedule_id, status, created_at, id)), so a run whose status is missing
 * from this list would not show there.
 */
export const RUN_STATUSES = ['success', 'limit_exceeded', 'invocation_error', 'skipped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * `schedule` (an occurrence), `manual` (run now, replay: keyed apart from occurrences) or `backfill`
 * (SPEC §18.1: a backfill's fire of a past occurrence, keyed apart from both), as answers name them.
 */
export const RUN_TRIGGERS = ['schedule', 'manual', 'backfill'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/**
 * The trigger a fire carries and its run and pending attempt store (`runs.trigger`,
 * `pending_attempts.trigger`): a backfill's names its backfill, so the UNIQUE (schedule_id,
 * scheduled_for, trigger, attempt) keys keep each backfill's fires apart from the schedule's own, from
 * manual ones and from another backfill's of the same occurrence (docs/decisions.md 290), and its
 * occurrence id (SPEC §13.1 webhook-id) differs from theirs.
 */
export type { FireTrigger } from '../db/contract';

/** The stored trigger of backfill `backfillId`'s fires. */
export function backfillTrigger(backfillId: string): FireTrigger {
  return `backfill:${backfillId}`;
}

/** A stored trigger as answers name it: `backfill:<id>` is `backfill` with its `backfillId`; null for a value no fire stores. */
export function triggerParts(stored: string): { trigger: RunTrigger; backfillId: string | null } | null {
  if (stored === 'schedule' || stored === 'manual') return { trigger: stored, backfillId: null };
  if (stored.startsWith('backfill:') && stored.length > 9) return { trigger: 'backfill', backfillId: stored.slice(9) };
  return null;
}

/** Codes a target schema's custom issue may carry (`params.code`); the rest are `invalid_request_body`. */
export type TargetIssueCode = 'invalid_invocation_target' | 'invalid_workflow_reference';

/** Add a custom issue carrying its SPEC code (`params.code`), as the schedule contract's coded rules do. */
export function refuse(ctx: z.RefinementCtx, message: string, path: (string | number)[], code: TargetIssueCode = 'invalid_invocation_target'): void {
  ctx.addIssue({ code: 'custom', message, path, params: { code } });
}

/** Largest `body` (http) or `input` (aws), serialized, in bytes: SQS's message limit, 256 KiB. */
export const PAYLOAD_MAX_BYTES = 256 * 1024;

/** Bytes of `s` in UTF-8. */
export const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

/**
 * Set on the result of an attempt sent a second time because the process that sent it first died
 * before recording it (SPEC §13, at least once): the receiver may have it twice, under the same
 * `webhook-id` / event `id`.
 */
export const RepeatedDelivery = z.literal(true).optional();

/**
 * How a target type speaks in the web app (SPEC §10): the choice in the form's Target section, the
 * line under it, and a target in words for the grid, the history, the schedule page and the dead
 * letters. Pure functions of the stored target.
 */
export interface TargetWords<T> {
  /** The choice's title in the form ("Webhook"), and the type in a property list ("Webhook (http)"). */
  title: string;
  /** The choice's one-line description ("Send a signed HTTP request to a URL."). */
  choice: string;
  /** The type in a sentence, with its article ("a webhook", "an AWS target"). */
  noun: string;
  /** The Target section's introduction once the type is chosen. */
  intro: string;
  /** The target in one headline ("Webhook POST https://…", "SQS queue orders (eu-west-1)"). */
  label(target: T): string;
  /** What each fire sends, in a few words ("default event · 10 s timeout"). */
  detail(target: T): string;
  /**
   * Why the web form cannot edit this stored target (the edit page then says so instead of showing
   * the form), or null. Default: it can.
   */
  notEditable?(target: T): { title: string; text: string } | null;
}

/**
 * A target's `detail` words from its parts, in order, skipping the absent ones:
 * `detailWords('default event', false, '10 s timeout')` is "default event · 10 s timeout" (SPEC §10).
 */
export function detailWords(...parts: (string | false | null | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' · ');
}

/**
 * A target type's universal contract (SPEC §6, §13): its name, its `invocation_target` schemas, the
 * `result` shapes its runs record, and its words. `T` is the stored target's type.
 */
export interface TargetContract<
  Type extends string = string,
  Save extends z.ZodType = z.ZodType,
  Stored extends z.ZodType = z.ZodType,
  Results extends readonly [z.ZodType, ...z.ZodType[]] = readonly [z.ZodType, ...z.ZodType[]],
> {
  /** `invocation_target_type` (SPEC §5.1). */
  type: Type;
  /** `invocation_target` as the product API, the web form and the CLI save it. */
  save: Save;
  /**
   * `invocation_target` as stored and answered: `save`, or wider where a facade stores more (SPEC §14:
   * an aws target of any service, whose fires are `unsupported_target`).
   */
  stored: Stored;
  /** The `result` shapes of its attempts (SPEC §8.1, §13), besides the refusals every type shares. */
  results: Results;
  /** True when a target sent without `invocation_target_type` (an update's patch) reads as this type. */
  looksLike(target: Record<string, unknown>): boolean;
  /**
   * The target's address: a dead letter's `TARGET_ARN` (SPEC §12.3) and the title of its cells: the
   * URL, the ARN, or `workflow:<schedule id>`.
   */
  address(target: z.output<Stored>, scheduleId: string): string;
  /**
   * Where in the embedded workflow catalog the target runs (SPEC §6.1), for a type that runs there:
   * tools that prepare the catalog (the CLI's deploy creates missing sessions) and compare a target
   * reference by reference read it. Absent for types delivered elsewhere.
   */
  catalogRef?(target: z.output<Stored>): CatalogRef;
  words: TargetWords<z.output<Stored>>;
}

/** A target's place in the embedded catalog (SPEC §6.1): org, blob, revision (an id, or `default`) and session. */
export interface CatalogRef {
  org?: string;
  blob: string;
  revision: string;
  session: string;
}

/**
 * The `looksLike` and `address` of a target type addressed by one string field (`url`, `arn`): a
 * patch sent without its type that has the field reads as this type, and the field is the address.
 */
export function addressedBy<K extends string>(key: K): { looksLike(target: Record<string, unknown>): boolean; address(target: Record<K, string>): string } {
  return { looksLike: (t) => key in t, address: (t) => t[key] };
}

/** Declare a target type's contract (checks its shape; returns it unchanged, types kept). */
export function defineTargetContract<Type extends string, Save extends z.ZodType, Stored extends z.ZodType, const Results extends readonly [z.ZodType, ...z.ZodType[]]>(
  contract: TargetContract<Type, Save, Stored, Results>,
): TargetContract<Type, Save, Stored, Results> {
  return contract;
}

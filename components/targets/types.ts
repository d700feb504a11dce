/**
 * What each target type brings to the web app (SPEC §10; STYLE §7): the UI half of its driver. The
 * form part (`TargetForm`: its values, labels, bounds and request body; pure) and the view part
 * (`TargetView`: its cells, details and result words) are named once, in components/targets/index.ts;
 * its form fields (client components) in components/targets/fields.tsx. The words themselves are the type's
 * universal contract's (lib/targets/<type>/contract.ts, `words`).
 */
import type { ReactNode } from 'react';
import type { InvocationTargetType, RunResult, TargetOf, TargetOptions } from '@/lib/schedules/contract';

/** Problems found in the form's text before any schema sees it (JSON that does not parse, a header named twice), by field. */
export type TextProblems = Partial<Record<string, string>>;

/**
 * A target type's part of the schedule form: its fields' values (strings as the inputs hold them,
 * each at the request path it fills: `invocation_target.url`), their labels and number bounds, and
 * the values ↔ `invocation_target` conversions. Every type's values sit side by side in the form, so
 * switching the type keeps what was typed.
 */
export interface TargetForm<T extends InvocationTargetType, V extends object, L extends Record<string, string>, B extends Partial<Record<keyof L, readonly [number, number]>> = Record<never, never>> {
  type: T;
  /** Its values when the schedule has another type (blank), and the start of a new one. */
  blank: V;
  /** Each input's label, by field name (`invocation_target.url`). */
  labels: L;
  /** Whole-number fields and their inclusive bounds (the contract's, never re-declared). */
  bounds: B;
  /** What a new schedule's form starts with for this type, given the catalog the actor can read (default: `blank`). */
  startFrom?(options: TargetOptions): V;
  /** The stored target as its values. */
  valuesOf(target: TargetOf<T>): V;
  /** Its values as the request's `invocation_target`; text problems are added to `problems` by field. */
  body(values: V, problems: TextProblems): unknown;
}

/** A target as the grid, the history and the dead letters show it (`displayTarget`): `kind` is its type. */
export interface Shown {
  kind: string;
}

/** What the "Workflow" column and the history's line under a target say a fire runs: a definition and where it comes from. */
export interface Runs {
  definition: string;
  /** `org/blob @ revision` when it comes from another blob, else null (the target's own revision). */
  source: string | null;
}

/** What the form hands a type's fields. */
export interface TargetFieldsProps {
  kit: import('../schedule-form/field-kit').FieldKit;
  /** Every type's values of `invocation_target` (this type's among them). */
  values: import('./index').TargetFormValues;
  /** The catalog the actor can read, for pickers (SPEC §10). */
  options: TargetOptions;
  /** Fields every fire sends (the input data), rendered where the type places them. */
  children?: ReactNode;
}

/** A target type's part of the web app's views (pure functions and presentational components: server and client). */
export interface TargetView<T extends InvocationTargetType, S extends Shown> {
  type: T;
  /** The target as the cells show it (pure). */
  shown(target: TargetOf<T>): S;
  /** The target cell (grid, history): two lines that break only between parts. */
  Cell(props: { shown: S }): ReactNode;
  /** The cell's text: the grid column's value and the cell's title. */
  text(shown: S): string;
  /** What a fire of it runs (the "Workflow" column), or null when it runs no workflow. */
  runs(shown: S): Runs | null;
  /** The schedule page's Target section: every field as saved, and what each fire sends. */
  Details(props: { target: TargetOf<T> }): ReactNode;
  /**
   * A run's `result` in words when it is this type's answer (`HTTP 200 · <excerpt>`, `SQS message
   * 1234…`), else null (a workflow result links its execution; refusals show their code).
   */
  resultWords(result: RunResult): ResultWords | null;
}

/** A run's result in words: whether it succeeded, the error code, the text shown and in full (the title). */
export interface ResultWords {
  ok: boolean;
  code?: string;
  text: string;
  full: string;
}

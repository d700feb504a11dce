/**
 * THE REGISTRY of target types in the web app (SPEC §10; STYLE §7): each type's part of the schedule
 * form (values, labels, bounds, request body) and of the views (cells, the schedule page's Target
 * section, run results in words), components/targets/<type>.tsx, named once below (its form fields,
 * client components, in fields.tsx). The form, the grid, the history, the schedule page and the dead
 * letters iterate it and never branch on a type's name; the words are each type's contract's.
 */
import type React from 'react';
import type { InvocationTargetType, RunResult, Schedule, TargetFields, TargetOptions } from '@/lib/schedules/contract';
import { AWS_FORM, AWS_VIEW } from './aws';
import { HTTP_FORM, HTTP_VIEW } from './http';
import type { ResultWords, Runs, Shown, TargetForm, TargetView, TextProblems } from './types';
import { WORKFLOW_FORM, WORKFLOW_VIEW } from './workflow';

/** Every target type's form part and view, by type: the compiler refuses a type without them. */
export const TARGET_UI = {
  workflow: { form: WORKFLOW_FORM, view: WORKFLOW_VIEW },
  http: { form: HTTP_FORM, view: HTTP_VIEW },
  aws: { form: AWS_FORM, view: AWS_VIEW },
} satisfies { [T in InvocationTargetType]: { form: TargetForm<T, object, Record<string, string>, object>; view: TargetView<T, Shown> } };

type Ui = (typeof TARGET_UI)[InvocationTargetType];
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type ValuesOf<F> = F extends { blank: infer V } ? V : never;

/** Every type's values side by side (`invocation_target`), so switching the type keeps what was typed. */
export type TargetFormValues = Intersect<ValuesOf<Ui['form']>>;

/** Any type's form part and view, their targets and values opaque (each is given only what it produced). */
interface AnyUi {
  form: {
    blank: object;
    labels: object;
    bounds: object;
    startFrom?(options: TargetOptions): object;
    valuesOf(target: never): object;
    body(values: never, problems: TextProblems): unknown;
  };
  view: {
    shown(target: never): Shown;
    Cell(props: { shown: never }): React.ReactNode;
    text(shown: never): string;
    runs(shown: never): Runs | null;
    Details(props: { target: never }): React.ReactNode;
    resultWords(result: RunResult): ResultWords | null;
  };
}
const UIS: AnyUi[] = Object.values(TARGET_UI);
/** The UI of target type `type`, or undefined for a name no contract declares. */
const uiOf = (type: string): AnyUi | undefined => (Object.hasOwn(TARGET_UI, type) ? TARGET_UI[type as InvocationTargetType] : undefined);

/** Every type's labels, by field name. */
export const TARGET_LABELS = Object.assign({}, ...UIS.map((u) => u.form.labels)) as Intersect<Ui['form']['labels']>;
/** Every type's whole-number fields and their bounds. */
export const TARGET_NUMBER_BOUNDS = Object.assign({}, ...UIS.map((u) => u.form.bounds)) as Intersect<Ui['form']['bounds']>;

/** Every type's values blank (a new schedule's, before its defaults). */
export function blankTargetValues(): TargetFormValues {
  return structuredClone(Object.assign({}, ...UIS.map((u) => u.form.blank))) as TargetFormValues;
}

/** A new schedule's values of every type (`startFrom`, else blank). */
export function targetStartValues(options: TargetOptions): TargetFormValues {
  return Object.assign(blankTargetValues(), ...UIS.map((u) => u.form.startFrom?.(options) ?? {}));
}

/** A stored target as the form's values: its own type's fields, the others blank. */
export function targetValuesOf(t: TargetFields | Schedule): TargetFormValues {
  return { ...blankTargetValues(), ...(uiOf(t.invocation_target_type)?.form.valuesOf(t.invocation_target as never) ?? {}) };
}

/** The chosen type's values as the request's `invocation_target`, with the text problems found on the way. */
export function targetBody(type: string, values: TargetFormValues, problems: TextProblems): unknown {
  return uiOf(type)?.form.body(values as never, problems);
}

/** A schedule's (or a run's, a dead letter's) target as its cells show it (`kind`: its type). */
export type ShownTarget = ReturnType<Ui['view']['shown']>;

/**
 * The target of a schedule or a run as its cells show it: a workflow target's parts; a webhook's or an
 * AWS target's headline and what each fire sends. A type no driver has (a row written outside the
 * product) is shown by its name alone (`{ kind }`), so one such row does not fail the whole grid.
 */
export function displayTarget(t: TargetFields): ShownTarget {
  const ui = uiOf(t.invocation_target_type);
  return (ui ? ui.view.shown(t.invocation_target as never) : { kind: t.invocation_target_type }) as ShownTarget;
}

/** The words for a stored target type no driver has (a row written outside the product). */
export function unknownTargetType(kind: string): string {
  return `unknown target type ${kind}`;
}

/** A shown target's cell (grid, history): two lines that break only between parts; a type no driver has, its name. */
export function TargetLabel({ shown }: { shown: ShownTarget }) {
  const ui = uiOf(shown.kind);
  return ui ? ui.view.Cell({ shown: shown as never }) : unknownTargetType(shown.kind);
}

/** A shown target's text: the grid column's value. */
export function shownText(shown: ShownTarget): string {
  return uiOf(shown.kind)?.view.text(shown as never) ?? unknownTargetType(shown.kind);
}

/** What a fire of a shown target runs (the "Workflow" column), or null when it runs no workflow. */
export function shownRuns(shown: ShownTarget): Runs | null {
  return uiOf(shown.kind)?.view.runs(shown as never) ?? null;
}

/** The schedule page's Target section of a stored target; a type no driver has, its name. */
export function TargetDetails({ target }: { target: TargetFields }) {
  const ui = uiOf(target.invocation_target_type);
  return ui ? ui.view.Details({ target: target.invocation_target as never }) : unknownTargetType(target.invocation_target_type);
}

/**
 * A run's `result` in words when a type answers it (`HTTP 200 · <excerpt>`, `SQS message 1234…`), or
 * null (a workflow result links its execution; a refusal shows its code and message).
 */
export function deliveryResultWords(result: RunResult): ResultWords | null {
  for (const u of UIS) {
    const words = u.view.resultWords(result);
    if (words) return words;
  }
  return null;
}

export type { ResultWords, Runs, TargetFieldsProps, TextProblems } from './types';

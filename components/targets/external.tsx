/**
 * What the targets delivered outside the catalog (SPEC §13: `http`, `aws`) share in the web app: a
 * target shown as a headline and what each fire sends, its cell, and the words for the default event.
 */
import type { ReactNode } from 'react';
import type { InvocationTargetType, RunResult, TargetContract, TargetOf } from '@/lib/schedules/contract';
import type { ResultWords, Shown, TargetView } from './types';

/** A target shown as its headline and what each fire sends (`kind`: its type). */
export interface ExternalShown<K extends string = string> extends Shown {
  kind: K;
  /** "Webhook POST https://example.com/hook", "SQS queue orders (eu-west-1)". */
  label: string;
  /** What each fire sends: "default event", "custom body · 10 s timeout", "group orders-1 · custom input". */
  detail: string;
  /** The full address (URL or ARN), for the title and copying. */
  address: string;
}

/** What a target without a payload of its own receives (SPEC §13.3), in words. */
export const DEFAULT_EVENT_WORDS = 'The default event (an EventBridge Scheduler event naming this schedule and the occurrence)';

/** Longest response excerpt or id shown in a run's result cell (the full text is in its title). */
const EXCERPT_SHOWN = 80;
export const clipped = (s: string, max = EXCERPT_SHOWN) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A long URL or ARN: its start and its end, the middle elided. */
const elide = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 18)}…${s.slice(-16)}` : s);

/** The headline and what each fire sends, on two lines (the full address in the title). */
export function ExternalCell({ shown }: { shown: ExternalShown }) {
  return (
    <div className="cell-stack" title={`${shown.label}\n${shown.address}`} data-target-kind={shown.kind}>
      <span className="small break">{elide(shown.label, 72)}</span>
      <span className="muted small">{shown.detail}</span>
    </div>
  );
}

/**
 * The view of a type delivered outside the catalog: shown as its contract's headline and detail with
 * its address, in `ExternalCell`; it runs no workflow. `Details` and `resultWords` are the type's own.
 */
export function externalView<T extends InvocationTargetType>(
  contract: TargetContract<T, import('zod').ZodType, import('zod').ZodType<TargetOf<T>>>,
  own: { Details(props: { target: TargetOf<T> }): ReactNode; resultWords(result: RunResult): ResultWords | null },
): TargetView<T, ExternalShown<T>> {
  return {
    type: contract.type,
    shown: (t) => ({ kind: contract.type, label: contract.words.label(t), detail: contract.words.detail(t), address: contract.address(t, '') }),
    Cell: ExternalCell,
    text: (s) => s.label,
    runs: () => null,
    ...own,
  };
}

'use client';
/**
 * "Target": what each fire reaches (SPEC §6, §13), chosen first among the registry's target types
 * (lib/targets/contract.ts `TARGET_CONTRACTS`: their words), then that type's fields
 * (components/targets/fields.tsx) — a workflow's session, definition and input data (a child of this
 * section), a webhook's request, an AWS target's ARN — and the refusal of a save whose target does
 * not resolve (SPEC §6.3).
 */
import type { ReactNode, RefObject } from 'react';
import { TARGET_CONTRACTS, targetContractOf, type TargetOptions } from '@/lib/schedules/contract';
import { TargetTypeFields } from '../targets/fields';
import { RadioCards, type FieldKit } from './field-kit';
import type { ScheduleFormValues } from './values';

export interface TargetFieldsProps {
  kit: FieldKit;
  options: TargetOptions;
  /** The chosen target type and every type's values (`invocation_target`). */
  targetType: ScheduleFormValues['invocation_target_type'];
  values: ScheduleFormValues['invocation_target'];
  /** The server's target refusal, in operator words, or null. */
  problem: string | null;
  /** Takes focus when a refusal appears. */
  alertRef: RefObject<HTMLDivElement | null>;
  /** Fields sent with every fire (the input data), placed by the type's fields. */
  children?: ReactNode;
}

/** What each target type's choice says (SPEC §6, §13): its contract's words. */
const TYPE_CHOICES = TARGET_CONTRACTS.map((c) => ({ value: c.type, title: c.words.title, detail: c.words.choice }));

export function TargetFields({ kit, options, targetType, values, problem, alertRef, children }: TargetFieldsProps) {
  return (
    <section className="container" aria-labelledby={`${kit.uid}-target`}>
      <h2 id={`${kit.uid}-target`} className="container-title">
        Target
      </h2>
      <RadioCards kit={kit} name="invocation_target_type" options={TYPE_CHOICES} />
      <p className="container-intro">{targetContractOf(targetType)?.words.intro}</p>
      {problem ? (
        <div role="alert" className="alert alert-error alert-inline" ref={alertRef} tabIndex={-1}>
          <strong>The schedule was not saved.</strong> {problem}
        </div>
      ) : null}
      <TargetTypeFields type={targetType} kit={kit} values={values} options={options}>
        {children}
      </TargetTypeFields>
    </section>
  );
}

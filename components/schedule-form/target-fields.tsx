'use client';
/**
 * "Target": what each fire reaches (SPEC §6, §13), chosen first: a workflow (the session a fire runs
 * in, the definition it runs, the input data — a child of this section — and the refusal of a save
 * whose target does not resolve, SPEC §6.3), a webhook or an AWS service (external-target-fields.tsx).
 * Every workflow picker is a free-text input with a datalist of what the operator can read
 * (`picker-options.ts`).
 */
import { useMemo, type ReactNode, type RefObject } from 'react';
import type { TargetOptions } from '@/lib/schedules/contract';
import { AwsFields, WebhookFields } from './external-target-fields';
import { RadioCards, type FieldKit } from './field-kit';
import { pickerOptions, type PickerOption, type PickerOptions } from './picker-options';
import { LABELS, type FieldName, type ScheduleFormValues } from './values';

type TargetValues = ScheduleFormValues['invocation_target'];

/** The id suffix of each picker's datalist (`${uid}-target-blobs`), in the order they are rendered. */
const LISTS: Record<keyof PickerOptions, string> = {
  orgs: 'orgs',
  targetBlobs: 'target-blobs',
  targetRevisions: 'target-revisions',
  sessions: 'sessions',
  workflowBlobs: 'workflow-blobs',
  workflowRevisions: 'workflow-revisions',
  definitions: 'definitions',
};

export interface TargetFieldsProps {
  kit: FieldKit;
  options: TargetOptions;
  target: TargetValues['target'];
  workflow: TargetValues['workflow'];
  /** The chosen target type and every type's values (`invocation_target`). */
  targetType: ScheduleFormValues['invocation_target_type'];
  values: TargetValues;
  /** The server's target refusal, in operator words, or null. */
  problem: string | null;
  /** Takes focus when a refusal appears. */
  alertRef: RefObject<HTMLDivElement | null>;
  /** Fields sent with every fire (the input data), after the pickers. */
  children?: ReactNode;
}

/** What each target type's choice says (SPEC §6, §13). */
const TYPE_CHOICES = [
  { value: 'workflow', title: 'Workflow', detail: 'Start a workflow execution in the catalog.' },
  { value: 'http', title: 'Webhook', detail: 'Send a signed HTTP request to a URL.' },
  { value: 'aws', title: 'AWS service', detail: 'Send to SQS, SNS, Lambda, Step Functions, EventBridge or ECS.' },
];

const INTROS: Record<ScheduleFormValues['invocation_target_type'], string> = {
  workflow: 'Where each fire starts its workflow execution: a session of a workflow blob’s revision.',
  http: 'Each fire sends a POST or PUT to this URL, signed with the scheduler’s signing secret (Standard Webhooks).',
  aws: 'Each fire calls the AWS service the ARN names, with the worker’s AWS configuration.',
};

export function TargetFields({ kit, options, target, workflow, targetType, values, problem, alertRef, children }: TargetFieldsProps) {
  const pickers = useMemo(() => pickerOptions(options, target, workflow), [options, target, workflow]);
  return (
    <section className="container" aria-labelledby={`${kit.uid}-target`}>
      <h2 id={`${kit.uid}-target`} className="container-title">
        Target
      </h2>
      <RadioCards kit={kit} name="invocation_target_type" options={TYPE_CHOICES} />
      <p className="container-intro">{INTROS[targetType]}</p>
      {problem ? (
        <div role="alert" className="alert alert-error alert-inline" ref={alertRef} tabIndex={-1}>
          <strong>The schedule was not saved.</strong> {problem}
        </div>
      ) : null}
      {targetType === 'http' ? (
        <WebhookFields kit={kit} />
      ) : targetType === 'aws' ? (
        <AwsFields kit={kit} target={values} />
      ) : (
        <>
          <WorkflowTargetPickers kit={kit} following={(target.revision ?? '').trim() === 'default'} />
          {children}
        </>
      )}
      {(Object.keys(LISTS) as (keyof PickerOptions)[]).map((list) => (
        <Datalist key={list} id={`${kit.uid}-${LISTS[list]}`} options={pickers[list]} />
      ))}
    </section>
  );
}

/** The session a fire runs in, the definition it runs, and where that definition comes from. */
function WorkflowTargetPickers({ kit, following }: { kit: FieldKit; following: boolean }) {
  return (
    <>
      <div className="field-grid">
        <PickerField kit={kit} name="invocation_target.target.org" list="orgs" hint={<>Needed when the blob is named by alias.</>} />
        <PickerField kit={kit} name="invocation_target.target.blob" list="targetBlobs" hint={<>A workflow blob you can write to, by alias or id.</>} />
        <PickerField kit={kit} name="invocation_target.target.revision" list="targetRevisions" hint={<>“default” follows the blob’s default revision at every fire; a revision id pins one draft.</>} />
        <PickerField
          kit={kit}
          name="invocation_target.target.session"
          list="sessions"
          hint={following ? <>By alias: it is looked up afresh in the default revision at every fire.</> : <>By alias or id; saved as the session’s id.</>}
        />
      </div>

      <h3 className="subsection-title">Workflow</h3>
      <div className="field-grid">
        <PickerField kit={kit} name="invocation_target.workflow.definition" list="definitions" hint={<>By alias (an id only when the definition’s revision is pinned).</>} />
      </div>
      <fieldset className="subfieldset">
        <legend>
          Workflow source <span className="optional">optional</span>
        </legend>
        <p className="field-hint">Leave blank to run a definition of the target’s own revision; name a blob to take it from there.</p>
        <div className="field-grid field-grid-3">
          <PickerField kit={kit} name="invocation_target.workflow.org" list="orgs" />
          <PickerField kit={kit} name="invocation_target.workflow.blob" list="workflowBlobs" />
          <PickerField kit={kit} name="invocation_target.workflow.revision" list="workflowRevisions" placeholder="default" />
        </div>
      </fieldset>
    </>
  );
}

interface PickerFieldProps {
  kit: FieldKit;
  name: FieldName;
  list: keyof PickerOptions;
  /** Shown under the input (and describing it); none when absent. */
  hint?: ReactNode;
  placeholder?: string;
}

/** A labelled free-text input offering the options of one picker. */
function PickerField({ kit, name, list, hint, placeholder }: PickerFieldProps) {
  return (
    <div className="field">
      <label htmlFor={kit.id(name)}>{LABELS[name]}</label>
      <input {...kit.register(name)} {...kit.a11y(name, hint !== undefined)} list={`${kit.uid}-${LISTS[list]}`} autoComplete="off" className="mono" placeholder={placeholder} />
      {hint !== undefined ? kit.hint(name, hint) : null}
      {kit.fieldError(name)}
    </div>
  );
}

function Datalist({ id, options }: { id: string; options: PickerOption[] }) {
  return (
    <datalist id={id}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </datalist>
  );
}

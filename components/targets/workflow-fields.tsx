'use client';
/**
 * The `workflow` target's form fields (SPEC §6): every picker is a free-text input with a datalist of
 * what the operator can read (`picker-options.ts`), then the fields every fire sends (the input data).
 */
import { useMemo, type ReactNode } from 'react';
import type { FieldKit } from '../schedule-form/field-kit';
import { pickerOptions, type PickerOption, type PickerOptions } from '../schedule-form/picker-options';
import { LABELS, type FieldName } from '../schedule-form/values';
import type { TargetFieldsProps } from './types';

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

/** The session a fire runs in, the definition it runs, where that definition comes from, then the input data. */
export function WorkflowFields({ kit, values, options, children }: TargetFieldsProps) {
  const { target, workflow } = values;
  const pickers = useMemo(() => pickerOptions(options, target, workflow), [options, target, workflow]);
  const following = (target.revision ?? '').trim() === 'default';
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
      {children}
      {(Object.keys(LISTS) as (keyof PickerOptions)[]).map((list) => (
        <Datalist key={list} id={`${kit.uid}-${LISTS[list]}`} options={pickers[list]} />
      ))}
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

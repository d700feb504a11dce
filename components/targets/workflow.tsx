/**
 * The `workflow` target in the web app (SPEC §6): its part of the schedule form (the session a fire
 * runs in, the definition it runs and where it comes from, the input data as JSON text), its cells
 * (`org/blob @ revision / session`, the definition) and the schedule page's Target section. Its
 * form fields are workflow-fields.tsx; its words, the contract's (lib/targets/workflow/contract.ts).
 */
import { targetRefLabel, workflowSourceLabel, type InvocationTarget, type TargetOf } from '@/lib/schedules/contract';
import { Property } from '../property';
import { opt, parseJsonText } from './form-text';
import type { TargetForm, TargetView } from './types';

export interface WorkflowFormValues {
  target: { org: string; blob: string; revision: string; session: string };
  workflow: { org: string; blob: string; revision: string; definition: string };
  /** JSON text of the `input_data` array. */
  input_data: string;
}

/** Each input's label, by the request path it fills. */
const WORKFLOW_LABELS = {
  'invocation_target.target.org': 'Target org',
  'invocation_target.target.blob': 'Target blob',
  'invocation_target.target.revision': 'Target revision',
  'invocation_target.target.session': 'Session',
  'invocation_target.workflow.org': 'Workflow org',
  'invocation_target.workflow.blob': 'Workflow blob',
  'invocation_target.workflow.revision': 'Workflow revision',
  'invocation_target.workflow.definition': 'Definition',
  'invocation_target.input_data': 'Input data (JSON)',
} as const;

export const WORKFLOW_FORM: TargetForm<'workflow', WorkflowFormValues, typeof WORKFLOW_LABELS> = {
  type: 'workflow',
  blank: {
    target: { org: '', blob: '', revision: 'default', session: '' },
    workflow: { org: '', blob: '', revision: '', definition: '' },
    input_data: '',
  },
  labels: WORKFLOW_LABELS,
  bounds: {},
  /** The seeded target (`acme-corp/procedures`, session `nightly-batch`, `triage`) when the catalog has it, else the first writable one. */
  startFrom(options) {
    const writable = options.blobs.filter((b) => b.role !== 'read');
    const blob = writable.find((b) => b.alias === 'procedures' && b.orgAlias === 'acme-corp') ?? writable[0];
    const sessions = blob ? options.sessions.filter((s) => s.revisionId === blob.defaultRevisionId && s.alias) : [];
    const session = sessions.find((s) => s.alias === 'nightly-batch') ?? sessions.find((s) => s.state === 'open') ?? sessions[0];
    const definitions = blob ? options.definitions.filter((d) => d.revisionId === blob.defaultRevisionId && d.alias) : [];
    const definition = definitions.find((d) => d.alias === 'triage') ?? definitions[0];
    return {
      target: {
        org: blob ? (blob.orgAlias ?? blob.orgId) : 'acme-corp',
        blob: blob ? (blob.alias ?? blob.id) : 'procedures',
        revision: 'default',
        session: session?.alias ?? 'nightly-batch',
      },
      workflow: { org: '', blob: '', revision: '', definition: definition?.alias ?? 'triage' },
      input_data: '',
    };
  },
  valuesOf: (t: TargetOf<'workflow'>) => ({
    target: { org: t.target.org ?? '', blob: t.target.blob, revision: t.target.revision, session: t.target.session },
    workflow: { org: t.workflow.org ?? '', blob: t.workflow.blob ?? '', revision: t.workflow.revision ?? '', definition: t.workflow.definition },
    input_data: t.input_data && t.input_data.length ? JSON.stringify(t.input_data, null, 2) : '',
  }),
  /** Blank org, blob and revision of the workflow source are left out (the target's own revision). */
  body(v, problems) {
    let inputData: unknown = [];
    if (v.input_data.trim() !== '') {
      const parsed = parseJsonText(v.input_data);
      if ('problem' in parsed) problems['invocation_target.input_data'] = parsed.problem;
      else inputData = parsed.value;
    }
    return {
      target: { org: opt(v.target.org), blob: v.target.blob.trim(), revision: v.target.revision.trim(), session: v.target.session.trim() },
      workflow: { org: opt(v.workflow.org), blob: opt(v.workflow.blob), revision: opt(v.workflow.revision), definition: v.workflow.definition.trim() },
      input_data: inputData,
    };
  },
};

/** A workflow target as the cells show it: its parts. */
export interface WorkflowShown {
  kind: 'workflow';
  target: InvocationTarget['target'];
  workflow: InvocationTarget['workflow'];
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, 8)}…` : s);

export const WORKFLOW_VIEW: TargetView<'workflow', WorkflowShown> = {
  type: 'workflow',
  shown: (t) => ({ kind: 'workflow', target: t.target, workflow: t.workflow }),
  /** `org/blob @ revision / session` on two lines that break only between parts; long ids shortened, given in full in the title. */
  Cell({ shown: { target } }) {
    return (
      <div className="cell-stack" title={targetRefLabel(target)} data-target-kind="workflow">
        <span className="mono small nowrap">{`${target.org ? `${target.org}/` : ''}${clip(target.blob, 40)}`}</span>
        <span className="mono small muted">
          <span className="nowrap">@ {clip(target.revision, 16)}</span> <span className="nowrap">/ {clip(target.session, 24)}</span>
        </span>
      </div>
    );
  },
  text: (s) => targetRefLabel(s.target),
  runs: (s) => ({ definition: s.workflow.definition, source: workflowSourceLabel(s.workflow) }),
  Details({ target: t }) {
    const following = t.target.revision === 'default';
    return (
      <>
        <div className="two-columns">
          <dl className="properties properties-single">
            <Property term="Type">Workflow (workflow)</Property>
            <Property term="Org">{t.target.org ? <span className="mono">{t.target.org}</span> : <span className="muted">—</span>}</Property>
            <Property term="Blob">
              <span className="mono">{t.target.blob}</span>
            </Property>
            <Property term="Revision">
              <span className="mono break">{t.target.revision}</span>
              <div className="muted small">{following ? 'Following: the blob’s default revision at every fire' : 'Pinned to this revision'}</div>
            </Property>
            <Property term="Session">
              <span className="mono break">{t.target.session}</span>
            </Property>
          </dl>
          <dl className="properties properties-single">
            <Property term="Workflow definition">
              <span className="mono break">{t.workflow.definition}</span>
            </Property>
            <Property term="Workflow org">{t.workflow.org ? <span className="mono">{t.workflow.org}</span> : <span className="muted">—</span>}</Property>
            <Property term="Workflow blob">{t.workflow.blob ? <span className="mono">{t.workflow.blob}</span> : <span className="muted">The target’s own revision</span>}</Property>
            <Property term="Workflow revision">{t.workflow.blob ? <span className="mono break">{t.workflow.revision ?? 'default'}</span> : <span className="muted">—</span>}</Property>
          </dl>
        </div>
        <h3 className="subsection-title">Input data</h3>
        {t.input_data && t.input_data.length ? <pre className="code-block">{JSON.stringify(t.input_data, null, 2)}</pre> : <p className="muted">None</p>}
      </>
    );
  },
  resultWords: () => null,
};


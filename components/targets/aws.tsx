/**
 * The `aws` target in the web app (SPEC §13.2): its part of the schedule form (the target ARN — its
 * service picks the call —, an optional role ARN and input, the message group id of SQS and SNS
 * targets, the detail type and source of an EventBridge bus), its cells and the schedule page's Target
 * section, and its run results in words. Its form fields are aws-fields.tsx; its words, the
 * contract's (lib/targets/aws/contract.ts).
 */
import { AWS_ANSWER_WORDS, AWS_TARGET, isOtherServiceArn, parseTargetArn, type AwsResult, type TargetOf } from '@/lib/schedules/contract';
import { Property } from '../property';
import { DEFAULT_EVENT_WORDS, clipped, externalView, type ExternalShown } from './external';
import { opt } from './form-text';
import type { TargetForm, TargetView } from './types';

export interface AwsFormValues {
  arn: string;
  role_arn: string;
  /** Sent as written; blank: the default event. */
  input: string;
  sqs_parameters: { message_group_id: string };
  eventbridge_parameters: { detail_type: string; source: string };
}

/** Each input's label, by the request path it fills. */
const AWS_LABELS = {
  'invocation_target.arn': 'Target ARN',
  'invocation_target.role_arn': 'Role ARN',
  'invocation_target.input': 'Input',
  'invocation_target.sqs_parameters.message_group_id': 'Message group id',
  'invocation_target.eventbridge_parameters.detail_type': 'Detail type',
  'invocation_target.eventbridge_parameters.source': 'Source',
} as const;

export const AWS_FORM: TargetForm<'aws', AwsFormValues, typeof AWS_LABELS> = {
  type: 'aws',
  blank: { arn: '', role_arn: '', input: '', sqs_parameters: { message_group_id: '' }, eventbridge_parameters: { detail_type: '', source: '' } },
  labels: AWS_LABELS,
  bounds: {},
  valuesOf: (t: TargetOf<'aws'>) => ({
    arn: t.arn,
    role_arn: t.role_arn ?? '',
    input: t.input ?? '',
    sqs_parameters: { message_group_id: t.sqs_parameters?.message_group_id ?? '' },
    eventbridge_parameters: { detail_type: t.eventbridge_parameters?.detail_type ?? '', source: t.eventbridge_parameters?.source ?? '' },
  }),
  /** The message group id is sent for SQS and SNS ARNs, the detail type and source for EventBridge buses, each only when the ARN names that service. */
  body(v) {
    const arn = v.arn.trim();
    const parsed = parseTargetArn(arn);
    const service = 'problem' in parsed ? null : parsed.service;
    const group = v.sqs_parameters.message_group_id.trim();
    const bus = v.eventbridge_parameters;
    return {
      arn,
      role_arn: opt(v.role_arn),
      input: v.input.trim() === '' ? undefined : v.input,
      sqs_parameters: (service === 'sqs' || service === 'sns') && group !== '' ? { message_group_id: group } : undefined,
      eventbridge_parameters: service === 'events' && (bus.detail_type.trim() !== '' || bus.source.trim() !== '') ? { detail_type: bus.detail_type.trim(), source: bus.source.trim() } : undefined,
    };
  },
};

export const AWS_VIEW: TargetView<'aws', ExternalShown<'aws'>> = externalView(AWS_TARGET, {
  Details: AwsTargetDetails,
  resultWords(result) {
    if (!('service' in result)) return null;
    const r = result as Extract<AwsResult, { service: string }>;
    const id = r.message_id ?? r.execution_arn ?? r.event_id ?? r.task_arns?.join(', ') ?? (r.request_id ? `request ${r.request_id}` : '');
    const full = `${AWS_ANSWER_WORDS[r.service]}${id ? ` ${id}` : ''}`;
    return { ok: true, text: clipped(full), full };
  },
});

/** The schedule page's Target section of an AWS target: the headline, every field as saved, and the input each fire sends. */
function AwsTargetDetails({ target }: { target: TargetOf<'aws'> }) {
  const other = isOtherServiceArn(target.arn);
  const none = <span className="muted">None</span>;
  return (
    <>
      <p className="target-headline" data-testid="target-headline">
        {AWS_TARGET.words.label(target)}
      </p>
      <dl className="properties properties-single">
        <Property term="Type">AWS service (aws)</Property>
        <Property term="Target ARN">
          <span className="mono break">{target.arn}</span>
        </Property>
        <Property term="Role ARN">{target.role_arn ? <span className="mono break">{target.role_arn}</span> : none}</Property>
        {target.sqs_parameters ? (
          <Property term="Message group id">
            <span className="mono">{target.sqs_parameters.message_group_id}</span>
          </Property>
        ) : null}
        {target.eventbridge_parameters ? (
          <>
            <Property term="Detail type">{target.eventbridge_parameters.detail_type}</Property>
            <Property term="Source">
              <span className="mono">{target.eventbridge_parameters.source}</span>
            </Property>
          </>
        ) : null}
        {target.ecs_parameters ? (
          <Property term="Task definition">
            <span className="mono break">{target.ecs_parameters.task_definition_arn}</span>
            <div className="muted small">
              {target.ecs_parameters.task_count ?? 1} task(s){target.ecs_parameters.launch_type ? `, ${target.ecs_parameters.launch_type}` : ''}
            </div>
          </Property>
        ) : null}
      </dl>
      {other ? (
        <p className="muted small">Stored as sent through the EventBridge API. This service is not a delivered target: each fire is recorded as a failed attempt (unsupported_target).</p>
      ) : (
        <p className="muted small">Delivered with the AWS SDK and the worker’s own AWS configuration (credentials, region, endpoint).</p>
      )}
      <h3 className="subsection-title">Input</h3>
      {target.ecs_parameters ? <p className="muted">None: RunTask starts the task definition as registered</p> : target.input === undefined ? <p className="muted">{DEFAULT_EVENT_WORDS}</p> : <pre className="code-block">{target.input}</pre>}
    </>
  );
}

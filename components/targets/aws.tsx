/**
 * The `aws` target in the web app (SPEC §13.2): its part of the schedule form (the target ARN — its
 * service picks the call —, an optional role ARN and input, the message group id of SQS and SNS
 * targets, the detail type and source of an EventBridge bus, an ECS cluster's RunTask parameters), its
 * cells and the schedule page's Target section, and its run results in words. Its form fields are aws-fields.tsx; its words, the
 * contract's (lib/targets/aws/contract.ts).
 */
import {
  AWS_ANSWER_WORDS,
  AWS_TARGET,
  ECS_TASK_COUNT,
  isOtherServiceArn,
  parseTargetArn,
  type AwsResult,
  type ECS_ASSIGN_PUBLIC_IP,
  type ECS_LAUNCH_TYPES,
  type EcsParameters,
  type TargetOf,
} from '@/lib/schedules/contract';
import { Property } from '../property';
import { DEFAULT_EVENT_WORDS, clipped, externalView, type ExternalShown } from './external';
import { numberOf, opt } from './form-text';
import type { TargetForm, TargetView } from './types';

export interface AwsFormValues {
  arn: string;
  role_arn: string;
  /** Sent as written; blank: the default event. */
  input: string;
  sqs_parameters: { message_group_id: string };
  eventbridge_parameters: { detail_type: string; source: string };
  /**
   * An ECS cluster's RunTask (SPEC §13.2 `ecs_parameters`): blank optional fields are left out; the
   * subnets and security groups are lists typed with commas, spaces or one per line.
   */
  ecs_parameters: {
    task_definition_arn: string;
    task_count: string;
    launch_type: '' | (typeof ECS_LAUNCH_TYPES)[number];
    platform_version: string;
    group: string;
    network_configuration: { awsvpc_configuration: { subnets: string; security_groups: string; assign_public_ip: '' | (typeof ECS_ASSIGN_PUBLIC_IP)[number] } };
  };
}

/** Each input's label, by the request path it fills. */
const AWS_LABELS = {
  'invocation_target.arn': 'Target ARN',
  'invocation_target.role_arn': 'Role ARN',
  'invocation_target.input': 'Input',
  'invocation_target.sqs_parameters.message_group_id': 'Message group id',
  'invocation_target.eventbridge_parameters.detail_type': 'Detail type',
  'invocation_target.eventbridge_parameters.source': 'Source',
  'invocation_target.ecs_parameters.task_definition_arn': 'Task definition ARN',
  'invocation_target.ecs_parameters.task_count': 'Task count',
  'invocation_target.ecs_parameters.launch_type': 'Launch type',
  'invocation_target.ecs_parameters.platform_version': 'Platform version',
  'invocation_target.ecs_parameters.group': 'Task group',
  'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.subnets': 'Subnets',
  'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.security_groups': 'Security groups',
  'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.assign_public_ip': 'Assign public IP',
} as const;

/** The whole-number fields and their inclusive bounds (SPEC §13.2 `ecs_parameters.task_count`). */
const AWS_BOUNDS = { 'invocation_target.ecs_parameters.task_count': ECS_TASK_COUNT } as const;

/** An ECS target's fields, blank (a fresh copy each call: the form's values are mutable). */
function blankEcs(): AwsFormValues['ecs_parameters'] {
  return { task_definition_arn: '', task_count: '', launch_type: '', platform_version: '', group: '', network_configuration: { awsvpc_configuration: { subnets: '', security_groups: '', assign_public_ip: '' } } };
}

/** Stored `ecs_parameters` as the form's values (lists one item a line). */
function ecsValues(p: EcsParameters | undefined): AwsFormValues['ecs_parameters'] {
  if (!p) return blankEcs();
  const vpc = p.network_configuration?.awsvpc_configuration;
  return {
    task_definition_arn: p.task_definition_arn,
    task_count: p.task_count !== undefined ? String(p.task_count) : '',
    launch_type: p.launch_type ?? '',
    platform_version: p.platform_version ?? '',
    group: p.group ?? '',
    network_configuration: {
      awsvpc_configuration: { subnets: (vpc?.subnets ?? []).join('\n'), security_groups: (vpc?.security_groups ?? []).join('\n'), assign_public_ip: vpc?.assign_public_ip ?? '' },
    },
  };
}

/** Subnet or security group ids typed with commas, spaces or one per line → the list. */
const listOf = (text: string) => text.split(/[\s,]+/).filter((x) => x !== '');

/**
 * `ecs_parameters` (SPEC §13.2) from the ECS fields: the task definition always (blank, the contract
 * says it is required), the other fields when filled; `network_configuration` when any of its three
 * fields is (its subnets are then required).
 */
function ecsBody(e: AwsFormValues['ecs_parameters']): Record<string, unknown> {
  const vpc = e.network_configuration.awsvpc_configuration;
  const networked = vpc.subnets.trim() !== '' || vpc.security_groups.trim() !== '' || vpc.assign_public_ip !== '';
  return {
    task_definition_arn: e.task_definition_arn.trim(),
    task_count: e.task_count.trim() === '' ? undefined : numberOf(e.task_count),
    launch_type: e.launch_type === '' ? undefined : e.launch_type,
    platform_version: opt(e.platform_version),
    group: opt(e.group),
    network_configuration: networked
      ? {
          awsvpc_configuration: {
            subnets: listOf(vpc.subnets),
            security_groups: vpc.security_groups.trim() === '' ? undefined : listOf(vpc.security_groups),
            assign_public_ip: vpc.assign_public_ip === '' ? undefined : vpc.assign_public_ip,
          },
        }
      : undefined,
  };
}

export const AWS_FORM: TargetForm<'aws', AwsFormValues, typeof AWS_LABELS, typeof AWS_BOUNDS> = {
  type: 'aws',
  blank: { arn: '', role_arn: '', input: '', sqs_parameters: { message_group_id: '' }, eventbridge_parameters: { detail_type: '', source: '' }, ecs_parameters: blankEcs() },
  labels: AWS_LABELS,
  bounds: AWS_BOUNDS,
  valuesOf: (t: TargetOf<'aws'>) => ({
    arn: t.arn,
    role_arn: t.role_arn ?? '',
    input: t.input ?? '',
    sqs_parameters: { message_group_id: t.sqs_parameters?.message_group_id ?? '' },
    eventbridge_parameters: { detail_type: t.eventbridge_parameters?.detail_type ?? '', source: t.eventbridge_parameters?.source ?? '' },
    ecs_parameters: ecsValues(t.ecs_parameters),
  }),
  /**
   * The message group id is sent for SQS and SNS ARNs, the detail type and source for EventBridge
   * buses, `ecs_parameters` (and no input) for ECS clusters, each only when the ARN names that service.
   */
  body(v) {
    const arn = v.arn.trim();
    const parsed = parseTargetArn(arn);
    const service = 'problem' in parsed ? null : parsed.service;
    const group = v.sqs_parameters.message_group_id.trim();
    const bus = v.eventbridge_parameters;
    return {
      arn,
      role_arn: opt(v.role_arn),
      // RunTask takes no input (SPEC §13.2): an ECS cluster's form shows no Input field.
      input: v.input.trim() === '' || service === 'ecs' ? undefined : v.input,
      sqs_parameters: (service === 'sqs' || service === 'sns') && group !== '' ? { message_group_id: group } : undefined,
      eventbridge_parameters: service === 'events' && (bus.detail_type.trim() !== '' || bus.source.trim() !== '') ? { detail_type: bus.detail_type.trim(), source: bus.source.trim() } : undefined,
      ecs_parameters: service === 'ecs' ? ecsBody(v.ecs_parameters) : undefined,
    };
  },
};

export const AWS_VIEW: TargetView<'aws', ExternalShown<'aws'>> = externalView(AWS_TARGET, {
  Details: AwsTargetDetails,
  resultWords(result) {
    if (!('service' in result)) return null;
    if ('operation' in result) {
      // A universal target's call (SPEC §14): the operation and what it answered.
      const u = result as Extract<AwsResult, { operation: string }>;
      const full = `${u.service.slice('aws-sdk:'.length)} ${u.operation}${u.response_excerpt ? ` ${u.response_excerpt}` : u.request_id ? ` request ${u.request_id}` : ''}`;
      return { ok: true, text: clipped(full), full };
    }
    const r = result as Extract<AwsResult, { message_id?: string }>;
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
        {target.ecs_parameters ? <EcsProperties ecs={target.ecs_parameters} /> : null}
      </dl>
      {other ? (
        <p className="muted small">Stored as sent through the EventBridge API. This service is not a delivered target: each fire is recorded as a failed attempt (unsupported_target).</p>
      ) : (
        <p className="muted small">Delivered with the AWS SDK and the org’s AWS credentials (its assumed role, or the worker’s own where the operator grants them).</p>
      )}
      <h3 className="subsection-title">Input</h3>
      {target.ecs_parameters ? <p className="muted">None: RunTask starts the task definition as registered</p> : target.input === undefined ? <p className="muted">{DEFAULT_EVENT_WORDS}</p> : <pre className="code-block">{target.input}</pre>}
    </>
  );
}

/** An ECS target's RunTask parameters (SPEC §13.2), each field that is set. */
function EcsProperties({ ecs }: { ecs: EcsParameters }) {
  const vpc = ecs.network_configuration?.awsvpc_configuration;
  return (
    <>
      <Property term="Task definition">
        <span className="mono break">{ecs.task_definition_arn}</span>
        <div className="muted small">
          {ecs.task_count ?? 1} task{(ecs.task_count ?? 1) === 1 ? '' : 's'} a fire{ecs.launch_type ? `, ${ecs.launch_type}` : ''}
          {ecs.platform_version ? `, platform ${ecs.platform_version}` : ''}
          {ecs.group ? `, group ${ecs.group}` : ''}
        </div>
      </Property>
      {vpc ? (
        <Property term="Network (awsvpc)">
          <div className="mono small break">subnets {vpc.subnets.join(', ')}</div>
          {vpc.security_groups?.length ? <div className="mono small break">security groups {vpc.security_groups.join(', ')}</div> : null}
          <div className="muted small">public IP {vpc.assign_public_ip === 'ENABLED' ? 'assigned' : 'not assigned'}</div>
        </Property>
      ) : null}
    </>
  );
}

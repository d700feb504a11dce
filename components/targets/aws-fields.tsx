'use client';
/**
 * The `aws` target's form fields (SPEC §13.2): the target ARN (its service picks the call), an
 * optional role ARN and input, the message group id of SQS and SNS targets (required for FIFO), the
 * detail type and source of an EventBridge bus, and an ECS cluster's RunTask parameters. Every input
 * fills the request path it is named by.
 */
import { ContextAttributeTools } from '../schedule-form/context-attributes';
import { AWS_TARGET_SERVICES, awsTargetLabel, ECS_ASSIGN_PUBLIC_IP, ECS_LAUNCH_TYPES, ECS_TASK_COUNT, parseTargetArn, parseUniversalArn } from '@/lib/schedules/contract';
import { NumberField, SelectField, TextAreaField, TextField, type FieldKit } from '../schedule-form/field-kit';
import { DEFAULT_EVENT_HINT } from './http-fields';
import { roleHint, universalInputHint } from './form-text';
import type { TargetFieldsProps } from './types';

const ECS = 'invocation_target.ecs_parameters' as const;
const VPC = `${ECS}.network_configuration.awsvpc_configuration` as const;

/**
 * An ECS cluster's RunTask (SPEC §13.2 `ecs_parameters`): the task definition, how many tasks, the
 * launch type, platform version and task group, and the awsvpc network configuration (subnets,
 * security groups, public IP), each field at its request path.
 */
function EcsFields({ kit }: { kit: FieldKit }) {
  const [minTasks, maxTasks] = ECS_TASK_COUNT;
  return (
    <>
      <div className="field-grid">
        <TextField kit={kit} name={`${ECS}.task_definition_arn`} wide placeholder="arn:aws:ecs:eu-west-1:123456789012:task-definition/report:3" hint={<>The task definition (family:revision, or its ARN) each fire starts.</>} />
        <NumberField kit={kit} name={`${ECS}.task_count`} optional placeholder="1" hint={<>{`${minTasks}–${maxTasks} tasks a fire; blank: 1.`}</>} />
        <SelectField kit={kit} name={`${ECS}.launch_type`} blank="Cluster default" choices={ECS_LAUNCH_TYPES} hint={<>Blank: the cluster’s default capacity provider strategy.</>} />
        <TextField kit={kit} name={`${ECS}.platform_version`} optional placeholder="LATEST" hint={<>Fargate only.</>} />
        <TextField kit={kit} name={`${ECS}.group`} optional placeholder="family:report" hint={<>The task group the tasks join.</>} />
      </div>
      <fieldset className="subfieldset">
        <legend>
          Network configuration (awsvpc) <span className="optional">optional</span>
        </legend>
        <p className="field-hint">Needed by tasks in awsvpc network mode, so by every Fargate task. Subnets and security groups: ids separated by commas, spaces or lines.</p>
        <div className="field-grid">
          <TextAreaField kit={kit} name={`${VPC}.subnets`} optional={false} rows={2} placeholder="subnet-0a1b2c3d" hint={<>1–16 subnets, required with any network setting.</>} />
          <TextAreaField kit={kit} name={`${VPC}.security_groups`} rows={2} placeholder="sg-0a1b2c3d" hint={<>Up to 5; blank: the VPC’s default group.</>} />
          <SelectField kit={kit} name={`${VPC}.assign_public_ip`} blank="Default (disabled)" choices={ECS_ASSIGN_PUBLIC_IP} hint={<>A public IP for each task (Fargate in a public subnet).</>} />
        </div>
      </fieldset>
    </>
  );
}

/**
 * AWS service: the target ARN (its service picks the call), an optional role ARN and input, the
 * message group id of SQS and SNS targets (required for FIFO), the detail type and source of an
 * EventBridge bus, and an ECS cluster's RunTask parameters (it takes no input).
 */
export function AwsFields({ kit, values: target, options }: TargetFieldsProps) {
  const parsed = parseTargetArn((target.arn ?? '').trim());
  const service = 'problem' in parsed ? null : parsed.service;
  const universal = parseUniversalArn((target.arn ?? '').trim());
  return (
    <>
      <div className="field-grid">
        <TextField
          kit={kit}
          name="invocation_target.arn"
          wide
          placeholder="arn:aws:sqs:eu-west-1:123456789012:orders"
          hint={
            service || universal ? (
              <>{awsTargetLabel(target.arn.trim())}.</>
            ) : (
              <>
                An ARN of one of: {AWS_TARGET_SERVICES.join(', ')}. Its service chooses the call (SQS SendMessage, SNS Publish, Lambda Invoke, …). Or a universal target, arn:aws:scheduler:::aws-sdk:&lt;service&gt;:&lt;action&gt;, with the action&apos;s parameters as input.
              </>
            )
          }
        />
        <TextField
          kit={kit}
          name="invocation_target.role_arn"
          optional={options.awsCredentials !== 'role'}
          wide
          placeholder="arn:aws:iam::123456789012:role/scheduler"
          hint={<>{roleHint(options.awsCredentials)}</>}
        />
      </div>
      {service === 'sqs' || service === 'sns' ? (
        <div className="field-grid">
          <TextField
            kit={kit}
            name="invocation_target.sqs_parameters.message_group_id"
            optional={!('fifo' in parsed && parsed.fifo)}
            hint={'fifo' in parsed && parsed.fifo ? <>Required for a FIFO {service === 'sqs' ? 'queue' : 'topic'}: messages of one group are delivered in order.</> : <>For FIFO queues and topics (names ending in .fifo) only.</>}
          />
        </div>
      ) : null}
      {service === 'events' ? (
        <div className="field-grid">
          <TextField kit={kit} name="invocation_target.eventbridge_parameters.detail_type" placeholder="Scheduled report" hint={<>The event’s detail-type.</>} />
          <TextField kit={kit} name="invocation_target.eventbridge_parameters.source" placeholder="com.example.reports" hint={<>The event’s source; not starting with “aws.”.</>} />
        </div>
      ) : null}
      {service === 'ecs' ? (
        <EcsFields kit={kit} />
      ) : (
        <TextAreaField
          kit={kit}
          name="invocation_target.input"
          placeholder='{"report": "daily"}'
          optional={!universal}
          hint={
            universal ? (
              <>{universalInputHint(universal)}</>
            ) : (
              <>Sent as written (the message body, the payload, the execution input). Lambda, Step Functions and EventBridge targets need JSON. {DEFAULT_EVENT_HINT}</>
            )
          }
        />
      )}
      {service === 'ecs' ? null : <ContextAttributeTools kit={kit} name="invocation_target.input" as="text" />}
    </>
  );
}

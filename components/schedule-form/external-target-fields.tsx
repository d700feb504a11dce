'use client';
/**
 * The Target section's fields for a webhook (SPEC §13.1) and an AWS service (SPEC §13.2). Every
 * input fills the request path it is named by (`invocation_target.url`), so the contract's issues and
 * the server's refusals land at it; the bounds and choices are the contract's.
 */
import type { ReactNode } from 'react';
import { useFieldArray } from 'react-hook-form';
import { AWS_TARGET_SERVICES, ECS_ASSIGN_PUBLIC_IP, ECS_LAUNCH_TYPES, ECS_TASK_COUNT, HTTP_HEADERS_MAX, HTTP_METHODS, HTTP_TIMEOUT_SECONDS, parseTargetArn } from '@/lib/schedules/contract';
import { awsTargetLabel } from '../display-target';
import { FieldLabel, NumberField, type FieldKit } from './field-kit';
import { LABELS, type FieldName, type ScheduleFormValues } from './values';

type TargetValues = ScheduleFormValues['invocation_target'];

const DEFAULT_EVENT_HINT = 'Blank: each fire sends the default event, an EventBridge Scheduler event naming this schedule, with an id stable for the occurrence.';

/** A labelled text input at `name`, with an optional hint and its error line. */
function TextField({ kit, name, hint, optional, placeholder, wide }: { kit: FieldKit; name: FieldName; hint?: ReactNode; optional?: boolean; placeholder?: string; wide?: boolean }) {
  return (
    <div className={`field${wide ? ' field-wide' : ''}`}>
      <FieldLabel kit={kit} name={name} optional={optional} />
      <input {...kit.register(name)} {...kit.a11y(name, hint !== undefined)} className="mono" autoComplete="off" spellCheck={false} placeholder={placeholder} />
      {hint !== undefined ? kit.hint(name, hint) : null}
      {kit.fieldError(name)}
    </div>
  );
}

/** A labelled JSON or text area at `name`. */
function TextAreaField({ kit, name, hint, placeholder, optional = true, rows = 5 }: { kit: FieldKit; name: FieldName; hint: ReactNode; placeholder?: string; optional?: boolean; rows?: number }) {
  return (
    <div className="field field-wide">
      <FieldLabel kit={kit} name={name} optional={optional} />
      <textarea {...kit.register(name)} {...kit.a11y(name, true)} rows={rows} className="mono" spellCheck={false} placeholder={placeholder} />
      {kit.hint(name, hint)}
      {kit.fieldError(name)}
    </div>
  );
}

/** A labelled select at `name`: a blank first choice (`blank`, the default), then `choices`. */
function SelectField({ kit, name, blank, choices, hint }: { kit: FieldKit; name: FieldName; blank: string; choices: readonly string[]; hint: ReactNode }) {
  return (
    <div className="field">
      <FieldLabel kit={kit} name={name} optional />
      <select {...kit.register(name)} {...kit.a11y(name, true)}>
        <option value="">{blank}</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      {kit.hint(name, hint)}
      {kit.fieldError(name)}
    </div>
  );
}

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

/** Webhook: URL, method, header rows, JSON body (blank: the default event) and timeout. */
export function WebhookFields({ kit }: { kit: FieldKit }) {
  const headers = useFieldArray({ control: kit.control, name: 'invocation_target.headers' });
  const headersName = 'invocation_target.headers' as const;
  return (
    <>
      <div className="field-grid">
        <TextField
          kit={kit}
          name="invocation_target.url"
          wide
          placeholder="https://hooks.example.com/scheduler"
          hint={<>An http:// or https:// URL. Loopback, private, link-local and cloud metadata addresses are refused unless the operator allows them (SCHEDULER_HTTP_ALLOWED_HOSTS).</>}
        />
        <div className="field">
          <label htmlFor={kit.id('invocation_target.method')}>{LABELS['invocation_target.method']}</label>
          <select {...kit.register('invocation_target.method')} {...kit.a11y('invocation_target.method')}>
            {HTTP_METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          {kit.fieldError('invocation_target.method')}
        </div>
        <NumberField
          kit={kit}
          name="invocation_target.timeout_seconds"
          optional
          placeholder={String(HTTP_TIMEOUT_SECONDS.default)}
          hint={<>{`${HTTP_TIMEOUT_SECONDS.min}–${HTTP_TIMEOUT_SECONDS.max} s; blank: ${HTTP_TIMEOUT_SECONDS.default} s. Success is a 2xx answer within it.`}</>}
        />
      </div>

      <fieldset className="subfieldset" aria-describedby={`${kit.id(headersName)}-hint`}>
        <legend>
          {LABELS[headersName]} <span className="optional">optional</span>
        </legend>
        {kit.hint(headersName, <>Sent with every request. The signature headers (webhook-id, webhook-timestamp, webhook-signature) and connection headers are the delivery’s own.</>)}
        {headers.fields.map((row, i) => (
          <div key={row.id} className="field-grid field-grid-3 header-row" data-header-row={i}>
            <div className="field">
              <label htmlFor={kit.id(`invocation_target.headers.${i}.name`)}>Header name</label>
              <input id={kit.id(`invocation_target.headers.${i}.name`)} {...kit.register(`invocation_target.headers.${i}.name`)} className="mono" autoComplete="off" spellCheck={false} placeholder="Authorization" />
            </div>
            <div className="field">
              <label htmlFor={kit.id(`invocation_target.headers.${i}.value`)}>Value</label>
              <input id={kit.id(`invocation_target.headers.${i}.value`)} {...kit.register(`invocation_target.headers.${i}.value`)} className="mono" autoComplete="off" spellCheck={false} />
            </div>
            <div className="field field-action">
              <button type="button" className="btn btn-link" onClick={() => headers.remove(i)} aria-label={`Remove header ${i + 1}`}>
                Remove
              </button>
            </div>
          </div>
        ))}
        <button type="button" className="btn btn-secondary" onClick={() => headers.append({ name: '', value: '' })} disabled={headers.fields.length >= HTTP_HEADERS_MAX}>
          Add header
        </button>
        {kit.fieldError(headersName)}
      </fieldset>

      <TextAreaField kit={kit} name="invocation_target.body" placeholder='{"report": "daily"}' hint={<>Any JSON value, sent as the request body. {DEFAULT_EVENT_HINT}</>} />
    </>
  );
}

/**
 * AWS service: the target ARN (its service picks the call), an optional role ARN and input, the
 * message group id of SQS and SNS targets (required for FIFO), the detail type and source of an
 * EventBridge bus, and an ECS cluster's RunTask parameters (it takes no input).
 */
export function AwsFields({ kit, target }: { kit: FieldKit; target: TargetValues }) {
  const parsed = parseTargetArn((target.arn ?? '').trim());
  const service = 'problem' in parsed ? null : parsed.service;
  return (
    <>
      <div className="field-grid">
        <TextField
          kit={kit}
          name="invocation_target.arn"
          wide
          placeholder="arn:aws:sqs:eu-west-1:123456789012:orders"
          hint={service ? <>{awsTargetLabel(target.arn.trim())}.</> : <>An ARN of one of: {AWS_TARGET_SERVICES.join(', ')}. Its service chooses the call (SQS SendMessage, SNS Publish, Lambda Invoke, …).</>}
        />
        <TextField kit={kit} name="invocation_target.role_arn" optional wide placeholder="arn:aws:iam::123456789012:role/scheduler" hint={<>Stored with the target; deliveries use the worker’s own AWS configuration.</>} />
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
          hint={<>Sent as written (the message body, the payload, the execution input). Lambda, Step Functions and EventBridge targets need JSON. {DEFAULT_EVENT_HINT}</>}
        />
      )}
    </>
  );
}

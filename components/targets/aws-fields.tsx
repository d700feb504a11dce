'use client';
/**
 * The `aws` target's form fields (SPEC §13.2): the target ARN (its service picks the call), an
 * optional role ARN and input, the message group id of SQS and SNS targets (required for FIFO), and
 * the detail type and source of an EventBridge bus. Every input fills the request path it is named by.
 */
import { AWS_TARGET_SERVICES, awsTargetLabel, parseTargetArn } from '@/lib/schedules/contract';
import { TextAreaField, TextField } from '../schedule-form/field-kit';
import { DEFAULT_EVENT_HINT } from './http-fields';
import type { TargetFieldsProps } from './types';

/**
 * AWS service: the target ARN (its service picks the call), an optional role ARN and input, the
 * message group id of SQS and SNS targets (required for FIFO), and the detail type and source of an
 * EventBridge bus.
 */
export function AwsFields({ kit, values: target }: TargetFieldsProps) {
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
      <TextAreaField
        kit={kit}
        name="invocation_target.input"
        placeholder='{"report": "daily"}'
        hint={<>Sent as written (the message body, the payload, the execution input). Lambda, Step Functions and EventBridge targets need JSON. {DEFAULT_EVENT_HINT}</>}
      />
    </>
  );
}

/** SPEC §13: each target type and each delivery result in its own words (grid, history, schedule page). */
import { describe, expect, it } from 'vitest';
import { awsTargetLabel } from '@/lib/schedules/contract';
import { deliveryResultWords, displayTarget, shownRuns, shownText, TargetDetails, TargetLabel } from '../targets';

describe('targets in their own words', () => {
  it('a webhook: method and URL, and what each fire sends', () => {
    expect(displayTarget({ invocation_target_type: 'http', invocation_target: { url: 'https://example.com/hook' } })).toEqual({
      kind: 'http',
      label: 'Webhook POST https://example.com/hook',
      detail: 'default event · 10 s timeout',
      address: 'https://example.com/hook',
    });
    expect(displayTarget({ invocation_target_type: 'http', invocation_target: { url: 'https://example.com/h', method: 'PUT', headers: { A: '1', B: '2' }, body: {}, timeout_seconds: 3 } })).toMatchObject({
      label: 'Webhook PUT https://example.com/h',
      detail: 'custom body · 2 headers · 3 s timeout',
    });
  });

  it('an AWS target: what its ARN names, and where', () => {
    expect(displayTarget({ invocation_target_type: 'aws', invocation_target: { arn: 'arn:aws:sqs:eu-west-1:123456789012:orders' } })).toEqual({
      kind: 'aws',
      label: 'SQS queue orders (eu-west-1)',
      detail: 'default event',
      address: 'arn:aws:sqs:eu-west-1:123456789012:orders',
    });
    expect(displayTarget({ invocation_target_type: 'aws', invocation_target: { arn: 'arn:aws:sqs:eu-west-1:123456789012:o.fifo', input: 'x', sqs_parameters: { message_group_id: 'g1' } } })).toMatchObject({
      label: 'SQS FIFO queue o.fifo (eu-west-1)',
      detail: 'group g1 · custom input',
    });
    expect(awsTargetLabel('arn:aws:sns:us-east-1:123456789012:alerts')).toBe('SNS topic alerts (us-east-1)');
    expect(awsTargetLabel('arn:aws:lambda:eu-central-1:123456789012:function:resize:prod')).toBe('Lambda function resize:prod (eu-central-1)');
    expect(awsTargetLabel('arn:aws:states:eu-west-1:123456789012:stateMachine:nightly')).toBe('Step Functions state machine nightly (eu-west-1)');
    expect(awsTargetLabel('arn:aws:events:eu-west-1:123456789012:event-bus/default')).toBe('EventBridge event bus default (eu-west-1)');
    expect(awsTargetLabel('arn:aws:kinesis:eu-west-1:123456789012:stream/s')).toBe('AWS kinesis target (not delivered)');
  });

  it('a type no driver has (a row written outside the product) is shown by its name, not a crash of the whole grid', () => {
    const shown = displayTarget({ invocation_target_type: 'carrier-pigeon', invocation_target: { coop: 'roof' } } as never);
    expect(shown).toEqual({ kind: 'carrier-pigeon' });
    expect(shownText(shown)).toBe('unknown target type carrier-pigeon');
    expect(TargetLabel({ shown })).toBe('unknown target type carrier-pigeon');
    expect(shownRuns(shown)).toBeNull();
    expect(TargetDetails({ target: { invocation_target_type: 'carrier-pigeon', invocation_target: {} } as never })).toBe('unknown target type carrier-pigeon');
  });

  it('a workflow target keeps its parts', () => {
    const it_ = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] };
    expect(displayTarget({ invocation_target_type: 'workflow', invocation_target: it_ })).toEqual({ kind: 'workflow', target: it_.target, workflow: it_.workflow });
  });
});

describe('delivery results in their own words', () => {
  it('a webhook answer: HTTP status and the excerpt, clipped on screen', () => {
    expect(deliveryResultWords({ http_status: 200, response_excerpt: 'accepted' })).toEqual({ ok: true, text: 'HTTP 200 · accepted', full: 'HTTP 200 · accepted' });
    const long = deliveryResultWords({ http_status: 202, response_excerpt: 'x'.repeat(200) });
    expect(long?.text).toHaveLength(80);
    expect(long?.text.endsWith('…')).toBe(true);
    expect(deliveryResultWords({ error: 'http_error', message: 'HTTP 500', http_status: 500, response_excerpt: 'boom' })).toEqual({ ok: false, code: 'http_error', text: 'HTTP 500 · boom', full: 'HTTP 500 · boom' });
  });

  it('an AWS answer: what the service returned', () => {
    expect(deliveryResultWords({ service: 'sqs', message_id: '1234-abcd', request_id: 'r' })?.text).toBe('SQS message 1234-abcd');
    expect(deliveryResultWords({ service: 'states', execution_arn: 'arn:aws:states:eu-west-1:1:execution:m:e' })?.text).toBe('Step Functions execution arn:aws:states:eu-west-1:1:execution:m:e');
    expect(deliveryResultWords({ service: 'lambda', request_id: 'req-9' })?.text).toBe('Lambda invoked request req-9');
  });

  it('a refusal or a workflow result is left to the generic cell (code: message, or the execution link)', () => {
    expect(deliveryResultWords({ error: 'destination_refused', message: '10.0.0.1 is a private address' })).toBeNull();
    expect(deliveryResultWords({ error: 'QueueDoesNotExist', message: 'gone' })).toBeNull();
    expect(deliveryResultWords({ execution_id: 'e', revision_id: 'r', session_id: 's', definition_id: 'd' })).toBeNull();
  });
});

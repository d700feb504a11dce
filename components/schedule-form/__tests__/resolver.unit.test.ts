/**
 * The form validates with the contract's one schema (`ScheduleCreateInput`, STYLE §2.3): each issue
 * shows at the form field its path names, a blank required field says so in plain words, and input
 * data that is not JSON is refused at its field.
 */
import { describe, expect, it } from 'vitest';
import type { FieldErrors } from 'react-hook-form';
import { makeResolver } from '../resolver';
import { defaultValues, type ScheduleFormValues } from '../values';

/** A new schedule's defaults when the catalog offers nothing: the seeded target, by alias. */
const valid: ScheduleFormValues = defaultValues({ orgs: [], blobs: [], sessions: [], definitions: [] });

async function errorsOf(values: ScheduleFormValues): Promise<Record<string, string>> {
  const result = await makeResolver()(values, undefined, { fields: {}, shouldUseNativeValidation: false });
  const out: Record<string, string> = {};
  const walk = (node: FieldErrors, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') out[path] = (v as { message: string }).message;
      else if (v && typeof v === 'object') walk(v as FieldErrors, path);
    }
  };
  walk(result.errors, '');
  return out;
}

describe('makeResolver', () => {
  it('passes the defaults of a new schedule', async () => {
    expect(valid.invocation_target.target).toEqual({ org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' });
    expect(await errorsOf(valid)).toEqual({});
  });

  it('a blank required field is "<Label> is required."', async () => {
    const values = { ...valid, invocation_target: { ...valid.invocation_target, target: { ...valid.invocation_target.target, session: ' ' } } };
    expect(await errorsOf(values)).toEqual({ 'invocation_target.target.session': 'Session is required.' });
    expect(await errorsOf({ ...valid, repeat: 'one_time' })).toEqual({ invocation_time: 'Invocation time is required.' });
  });

  it('§7.1: a cron expression the contract refuses shows at the cron expression', async () => {
    const errors = await errorsOf({ ...valid, cron_expression: '0 9 * * * *' });
    expect(errors).toEqual({ cron_expression: 'day-of-month: `*` must be `?` here because day-of-week is `*`; exactly one of day-of-month and day-of-week is `?`' });
  });

  it('input data that is not JSON is refused at the input-data field', async () => {
    const errors = await errorsOf({ ...valid, invocation_target: { ...valid.invocation_target, input_data: '{' } });
    expect(Object.keys(errors)).toEqual(['invocation_target.input_data']);
    expect(errors['invocation_target.input_data']).toMatch(/^Not valid JSON: /);
  });

  it('a description over the contract limit shows at the description', async () => {
    expect(await errorsOf({ ...valid, description: 'x'.repeat(257) })).toEqual({ description: 'description must be at most 256 characters' });
    expect(await errorsOf({ ...valid, description: 'x'.repeat(256) })).toEqual({});
  });

  it('§12: a bounded number field says its bounds (the contract\'s), a blank one that it is required', async () => {
    const retry = (maximum_retry_attempts: string, maximum_event_age_seconds = '3600') => ({ ...valid, retry_policy: { mode: 'retry' as const, maximum_retry_attempts, maximum_event_age_seconds } });
    expect(await errorsOf(retry('186'))).toEqual({ 'retry_policy.maximum_retry_attempts': 'Maximum retry attempts must be a whole number from 0 to 185.' });
    expect(await errorsOf(retry('1.5'))).toEqual({ 'retry_policy.maximum_retry_attempts': 'Maximum retry attempts must be a whole number from 0 to 185.' });
    expect(await errorsOf(retry('0', '59'))).toEqual({ 'retry_policy.maximum_event_age_seconds': 'Maximum event age (seconds) must be a whole number from 60 to 86,400.' });
    expect(await errorsOf(retry(' '))).toEqual({ 'retry_policy.maximum_retry_attempts': 'Maximum retry attempts is required.' });
    expect(await errorsOf(retry('185', '86400'))).toEqual({});
    // Off: the numbers it keeps are not sent, so not checked.
    expect(await errorsOf({ ...valid, retry_policy: { mode: 'off', maximum_retry_attempts: '999', maximum_event_age_seconds: '' } })).toEqual({});
    expect(await errorsOf({ ...valid, flexible_time_window: { mode: 'flexible', maximum_window_minutes: '1441' } })).toEqual({
      'flexible_time_window.maximum_window_minutes': 'Window (minutes) must be a whole number from 1 to 1,440.',
    });
    expect(await errorsOf({ ...valid, pause_after_failures: '0' })).toEqual({ pause_after_failures: 'Pause after consecutive failed occurrences must be a whole number from 1 to 1,000.' });
    expect(await errorsOf({ ...valid, pause_after_failures: '' })).toEqual({});
  });

  it('§12.3, §12.5: a dead letter that is not an SQS queue ARN, and a pause note over its limit, show at their fields', async () => {
    expect(await errorsOf({ ...valid, dead_letter: { arn: 'arn:aws:sns:us-east-1:123456789012:topic' } })).toEqual({
      'dead_letter.arn': 'dead_letter.arn must be a standard SQS queue ARN: arn:aws:sqs:<region>:<account>:<queue>',
    });
    expect(await errorsOf({ ...valid, enabled: false, paused: { note: 'x'.repeat(257) } })).toEqual({ 'paused.note': 'paused.note must be at most 256 characters' });
  });
});

describe('makeResolver: webhook and AWS targets (SPEC §13), with the API\'s own schema', () => {
  const http = (over: Partial<ScheduleFormValues['invocation_target']>): ScheduleFormValues => ({ ...valid, invocation_target_type: 'http', invocation_target: { ...valid.invocation_target, ...over } });
  const aws = (over: Partial<ScheduleFormValues['invocation_target']>): ScheduleFormValues => ({ ...valid, invocation_target_type: 'aws', invocation_target: { ...valid.invocation_target, ...over } });

  it('a webhook: the URL is required and must be http(s); the timeout says its bounds; header problems show at the headers', async () => {
    expect(await errorsOf(http({ url: ' ' }))).toEqual({ 'invocation_target.url': 'URL is required.' });
    expect(await errorsOf(http({ url: 'ftp://x.example/' }))).toEqual({ 'invocation_target.url': 'url must use http or https, not ftp' });
    expect(await errorsOf(http({ url: 'https://x.example/', timeout_seconds: '45' }))).toEqual({ 'invocation_target.timeout_seconds': 'Timeout (seconds) must be a whole number from 1 to 30.' });
    expect(await errorsOf(http({ url: 'https://x.example/', headers: [{ name: 'Webhook-Signature', value: 'v1,x' }] }))).toEqual({
      'invocation_target.headers': 'header "Webhook-Signature" is set by the delivery and cannot be configured',
    });
    expect(await errorsOf(http({ url: 'https://x.example/', body: '{"a":' }))).toMatchObject({ 'invocation_target.body': expect.stringMatching(/^Not valid JSON: /) });
    // The workflow fields left blank do not matter for a webhook.
    expect(await errorsOf(http({ url: 'https://x.example/', target: { org: '', blob: '', revision: '', session: '' } }))).toEqual({});
  });

  it('an AWS target: the ARN is required and of a supported service; a FIFO queue asks for its message group id at that field', async () => {
    expect(await errorsOf(aws({ arn: '' }))).toEqual({ 'invocation_target.arn': 'Target ARN is required.' });
    expect(await errorsOf(aws({ arn: 'arn:aws:kinesis:eu-west-1:123456789012:stream/s' }))).toEqual({
      'invocation_target.arn': '"kinesis" ARNs are not a supported target; use one of sqs, sns, lambda, states, events, ecs',
    });
    expect(await errorsOf(aws({ arn: 'arn:aws:sqs:eu-west-1:123456789012:o.fifo' }))).toEqual({
      'invocation_target.sqs_parameters.message_group_id': 'a FIFO queue needs sqs_parameters.message_group_id',
    });
    expect(await errorsOf(aws({ arn: 'arn:aws:sqs:eu-west-1:123456789012:o.fifo', sqs_parameters: { message_group_id: 'g' } }))).toEqual({});
  });

  it('§13.2 an ECS cluster: its RunTask fields are checked by the contract, each at its own field (never at one the form does not show)', async () => {
    const cluster = 'arn:aws:ecs:eu-west-1:123456789012:cluster/reports';
    const ecs = (over: Partial<ScheduleFormValues['invocation_target']['ecs_parameters']>, vpc: Partial<ScheduleFormValues['invocation_target']['ecs_parameters']['network_configuration']['awsvpc_configuration']> = {}) => {
      const blank = valid.invocation_target.ecs_parameters;
      return aws({
        arn: cluster,
        ecs_parameters: { ...blank, ...over, network_configuration: { awsvpc_configuration: { ...blank.network_configuration.awsvpc_configuration, ...vpc } } },
      });
    };
    expect(await errorsOf(ecs({}))).toEqual({ 'invocation_target.ecs_parameters.task_definition_arn': 'Task definition ARN is required.' });
    expect(await errorsOf(ecs({ task_definition_arn: 'report:3', task_count: '11' }))).toEqual({
      'invocation_target.ecs_parameters.task_count': 'Task count must be a whole number from 1 to 10.',
    });
    expect(await errorsOf(ecs({ task_definition_arn: 'report:3' }, { security_groups: 'sg-1' }))).toEqual({
      'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.subnets': 'Subnets is required.',
    });
    expect(await errorsOf(ecs({ task_definition_arn: 'report:3' }, { security_groups: 'sg-1 sg-2 sg-3 sg-4 sg-5 sg-6', subnets: 'subnet-1' }))).toEqual({
      'invocation_target.ecs_parameters.network_configuration.awsvpc_configuration.security_groups': expect.stringMatching(/5/),
    });
    expect(await errorsOf(ecs({ task_definition_arn: 'report:3', task_count: '2', launch_type: 'FARGATE' }, { subnets: 'subnet-1, subnet-2', assign_public_ip: 'ENABLED' }))).toEqual({});
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDeadLetterMessage, SQS_MESSAGE_MAX_BYTES, type DeadLetterRequest } from '../aws/dead-letter-queue';
import { defaultEvent, occurrenceId, scheduleArn } from '../default-event';

const scheduleId = '0b6f3a52-1c1e-4a8e-9d8b-3e5f2b7c1a90';
const arn = scheduleArn({ region: 'eu-west-1', account: '123456789012', group: 'default', name: 'nightly-report' });

describe('§13.3 the default event', () => {
  it('is the EventBridge Scheduler event, field by field', () => {
    const event = defaultEvent({ scheduleId, scheduledFor: new Date('2026-03-01T09:00:00.000Z'), trigger: 'schedule', account: '123456789012', region: 'eu-west-1', scheduleArn: arn });
    expect(event).toEqual({
      version: '0',
      id: occurrenceId({ scheduleId, scheduledFor: new Date('2026-03-01T09:00:00.000Z'), trigger: 'schedule' }),
      'detail-type': 'Scheduled Event',
      source: 'aws.scheduler',
      account: '123456789012',
      time: '2026-03-01T09:00:00Z',
      region: 'eu-west-1',
      resources: ['arn:aws:scheduler:eu-west-1:123456789012:schedule/default/nightly-report'],
      detail: '{}',
    });
    expect(Object.keys(event)).toEqual(['version', 'id', 'detail-type', 'source', 'account', 'time', 'region', 'resources', 'detail']);
  });

  it('has an id stable per occurrence: a version-5 UUID of schedule, trigger and instant', () => {
    const at = new Date('2026-03-01T09:00:00.000Z');
    const id = occurrenceId({ scheduleId, scheduledFor: at, trigger: 'schedule' });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(occurrenceId({ scheduleId, scheduledFor: new Date(at.getTime()), trigger: 'schedule' })).toBe(id);
    expect(occurrenceId({ scheduleId, scheduledFor: at, trigger: 'manual' })).not.toBe(id);
    expect(occurrenceId({ scheduleId, scheduledFor: new Date(at.getTime() + 60_000), trigger: 'schedule' })).not.toBe(id);
  });

  it('property: distinct occurrences get distinct ids, the same occurrence the same id', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 1, max: 10_000_000 }), (sid, ms, delta) => {
        const a = occurrenceId({ scheduleId: sid, scheduledFor: new Date(ms), trigger: 'schedule' });
        expect(occurrenceId({ scheduleId: sid, scheduledFor: new Date(ms), trigger: 'schedule' })).toBe(a);
        expect(occurrenceId({ scheduleId: sid, scheduledFor: new Date(ms + delta), trigger: 'schedule' })).not.toBe(a);
      }),
    );
  });
});

describe('§12.3 the dead-letter message', () => {
  const base: Omit<DeadLetterRequest, 'pool'> = {
    deadLetterArn: 'arn:aws:sqs:us-east-1:123456789012:dlq',
    request: { type: 'http', method: 'POST', url: 'https://x.example/', headers: {}, body: '{}' },
    errorCode: 'http_error',
    errorMessage: 'HTTP 500 Internal Server Error: not a 2xx answer',
    executionId: '7c1f0a52-4c1e-4a8e-9d8b-3e5f2b7c1a90',
    exhausted: 'maximum_retry_attempts',
    retryAttempts: 2,
    scheduledFor: new Date('2026-03-01T09:00:00.000Z'),
    scheduleArn: arn,
    targetArn: 'https://x.example/',
  };

  it('carries every attribute, the request as its body, untruncated', () => {
    const m = buildDeadLetterMessage(base);
    expect(m.truncated).toBe(false);
    expect(JSON.parse(m.body)).toEqual(base.request);
    expect(m.attributes).toEqual({
      ERROR_CODE: { DataType: 'String', StringValue: 'http_error' },
      ERROR_MESSAGE: { DataType: 'String', StringValue: 'HTTP 500 Internal Server Error: not a 2xx answer' },
      EXECUTION_ID: { DataType: 'String', StringValue: '7c1f0a52-4c1e-4a8e-9d8b-3e5f2b7c1a90' },
      EXHAUSTED_RETRY_CONDITION: { DataType: 'String', StringValue: 'MaximumRetryAttempts' },
      IS_PAYLOAD_TRUNCATED: { DataType: 'String', StringValue: 'false' },
      RETRY_ATTEMPTS: { DataType: 'Number', StringValue: '2' },
      SCHEDULED_TIME: { DataType: 'String', StringValue: '2026-03-01T09:00:00Z' },
      SCHEDULE_ARN: { DataType: 'String', StringValue: arn },
      TARGET_ARN: { DataType: 'String', StringValue: 'https://x.example/' },
    });
  });

  it('cuts a body over 256 KiB (attributes included) and says so', () => {
    const m = buildDeadLetterMessage({ ...base, exhausted: 'maximum_event_age', request: { body: 'é'.repeat(200_000) } });
    expect(m.truncated).toBe(true);
    expect(m.attributes.IS_PAYLOAD_TRUNCATED.StringValue).toBe('true');
    expect(m.attributes.EXHAUSTED_RETRY_CONDITION.StringValue).toBe('MaximumEventAgeInSeconds');
    const attributeBytes = Object.entries(m.attributes).reduce((n, [k, a]) => n + Buffer.byteLength(k) + Buffer.byteLength(a.DataType!) + Buffer.byteLength(a.StringValue!), 0);
    const total = Buffer.byteLength(m.body) + attributeBytes;
    expect(total).toBeLessThanOrEqual(SQS_MESSAGE_MAX_BYTES);
    expect(total).toBeGreaterThanOrEqual(SQS_MESSAGE_MAX_BYTES - 2); // cut at a character boundary (é is 2 bytes); 'true' is 1 byte shorter than 'false'
    expect(m.body.startsWith('{"body":"éé')).toBe(true);
    expect(m.body).not.toContain('\uFFFD');
  });
});

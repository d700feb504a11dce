/** SPEC §12.3: a dead letter keeps the request its last attempt sent, without the receiver's secrets. */
import { describe, expect, it } from 'vitest';
import { REDACTED, redactForDeadLetter } from '..';

describe('redactForDeadLetter', () => {
  it('replaces credential and signature headers of a webhook request, keeps the rest and the body', () => {
    const sent = {
      type: 'http' as const,
      method: 'PUT' as const,
      url: 'https://hooks.example.com/in',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer s3cr3t',
        'x-api-key': 'k-123',
        cookie: 'sid=1',
        'x-env': 'prod',
        'webhook-id': 'id-1',
        'webhook-timestamp': '1767225600',
        'webhook-signature': 'v1,abc=',
      },
      body: '{"k":1}',
    };
    expect(redactForDeadLetter(sent)).toEqual({
      ...sent,
      headers: { 'content-type': 'application/json', authorization: REDACTED, 'x-api-key': REDACTED, cookie: REDACTED, 'x-env': 'prod', 'webhook-id': 'id-1', 'webhook-timestamp': '1767225600', 'webhook-signature': REDACTED },
    });
    expect(sent.headers.authorization).toBe('Bearer s3cr3t');
  });

  it('returns an AWS request as it is (the SDK signs it; it carries no credential)', () => {
    const sent = { type: 'aws' as const, service: 'sqs' as const, operation: 'SendMessage', region: 'us-east-1', params: { QueueUrl: 'q', MessageBody: '{}' } };
    expect(redactForDeadLetter(sent)).toBe(sent);
  });
});

/** SPEC §12.3, §13.5: a dead letter keeps the request its last attempt sent, without any header value but the delivery's own. */
import { describe, expect, it } from 'vitest';
import { HEADER_MASK, redactForDeadLetter, WEBHOOK_USER_AGENT } from '..';

describe('redactForDeadLetter', () => {
  it('masks every header value of a webhook request but the delivery\'s own public ones, whatever the name; keeps the body', () => {
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
        'x-shopify-hmac-sha256': 'hmac-value',
        'x-pass': 'hunter2',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': 'id-1',
        'webhook-timestamp': '1767225600',
        'webhook-signature': 'v1,abc=',
      },
      body: '{"k":1}',
    };
    expect(redactForDeadLetter(sent)).toEqual({
      ...sent,
      headers: {
        'content-type': 'application/json',
        authorization: HEADER_MASK,
        'x-api-key': HEADER_MASK,
        cookie: HEADER_MASK,
        'x-env': HEADER_MASK,
        'x-shopify-hmac-sha256': HEADER_MASK,
        'x-pass': HEADER_MASK,
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': 'id-1',
        'webhook-timestamp': '1767225600',
        'webhook-signature': HEADER_MASK,
      },
    });
    expect(sent.headers.authorization).toBe('Bearer s3cr3t');
    expect(redactForDeadLetter(redactForDeadLetter(sent))).toEqual(redactForDeadLetter(sent));
  });

  it('masks the delivery\'s own header names when the target set their values', () => {
    const sent = { type: 'http' as const, method: 'POST' as const, url: 'https://h.example/', headers: { 'content-type': 'text/plain; token=abc', 'user-agent': 'agent secret' }, body: '' };
    expect(redactForDeadLetter(sent).headers).toEqual({ 'content-type': HEADER_MASK, 'user-agent': HEADER_MASK });
  });

  it('returns an AWS request as it is (the SDK signs it; it carries no credential)', () => {
    const sent = { type: 'aws' as const, service: 'sqs' as const, operation: 'SendMessage', region: 'us-east-1', params: { QueueUrl: 'q', MessageBody: '{}' } };
    expect(redactForDeadLetter(sent)).toBe(sent);
  });
});

import { describe, expect, it } from 'vitest';
import { AWS_TARGET } from '../aws/contract';
import { targetNotEditable } from '../contract';
import { detailWords } from '../define';
import { HTTP_TARGET } from '../http/contract';

describe('target detail words (SPEC §10)', () => {
  it('joins the present parts with a middle dot, skipping absent ones', () => {
    expect(detailWords('default event', false, null, undefined, '', '10 s timeout')).toBe('default event · 10 s timeout');
    expect(detailWords()).toBe('');
  });

  it('says what each fire of a webhook sends', () => {
    expect(HTTP_TARGET.words.detail({ url: 'https://example.com/hook' })).toBe('default event · 10 s timeout');
    expect(HTTP_TARGET.words.detail({ url: 'https://example.com/hook', body: '{}', headers: { a: '1' }, timeout_seconds: 3 })).toBe('custom body · 1 header · 3 s timeout');
    expect(HTTP_TARGET.words.detail({ url: 'https://example.com/hook', headers: { a: '1', b: '2' } })).toBe('default event · 2 headers · 10 s timeout');
  });

  it('says what each fire of an aws target sends', () => {
    const queue = 'arn:aws:sqs:us-east-1:123456789012:orders.fifo';
    expect(AWS_TARGET.words.detail({ arn: queue, role_arn: 'arn:aws:iam::123456789012:role/r' })).toBe('default event');
    expect(AWS_TARGET.words.detail({ arn: queue, input: '{}', sqs_parameters: { message_group_id: 'orders-1' } })).toBe('group orders-1 · custom input');
    expect(
      AWS_TARGET.words.detail({
        arn: 'arn:aws:ecs:us-east-1:123456789012:cluster/c',
        ecs_parameters: { task_definition_arn: 'arn:aws:ecs:us-east-1:123456789012:task-definition/nightly:3' },
      } as Parameters<typeof AWS_TARGET.words.detail>[0]),
    ).toBe('task nightly:3');
  });
});

describe('targetNotEditable', () => {
  it('a webhook is editable; a type no contract declares (a row written outside the product) is not, and says so', () => {
    expect(targetNotEditable({ invocation_target_type: 'http', invocation_target: { url: 'https://example.com/h' } } as never)).toBeNull();
    expect(targetNotEditable({ invocation_target_type: 'carrier-pigeon', invocation_target: {} } as never)).toEqual({
      title: 'Unknown target type: not editable here.',
      text: 'This schedule\'s target type "carrier-pigeon" is not one this scheduler delivers to, so the form cannot show or change it. It can be read and deleted.',
    });
  });
});

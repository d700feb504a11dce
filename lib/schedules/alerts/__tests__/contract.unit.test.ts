/**
 * SPEC §17 rule contract: the refusals the rule form shows are said in its own words, not zod's
 * defaults (decision 342), through the one schema the form, the API and the CLI share.
 */
import { describe, expect, it } from 'vitest';
import { parseOrRefuse } from '../../../errors';
import { CreateAlertRuleParams } from '../contract';

const refusal = (input: unknown) => {
  try {
    parseOrRefuse(CreateAlertRuleParams, input);
  } catch (e) {
    return { code: (e as { code: string }).code, message: (e as Error).message };
  }
  return null;
};

describe('§17 rule refusals in plain words', () => {
  it('no channel, no event, a number out of range or not a number', () => {
    expect(refusal({ events: ['failure'], channels: [] })).toEqual({ code: 'invalid_request_body', message: 'channels: choose at least one channel' });
    expect(refusal({ events: [], channels: ['ops'] })).toEqual({ code: 'invalid_request_body', message: 'events: choose at least one event' });
    expect(refusal({ events: ['failure'], channels: ['ops'], failure_tolerance: 0 })).toEqual({ code: 'invalid_request_body', message: 'failure_tolerance: must be at least 1' });
    expect(refusal({ events: ['failure'], channels: ['ops'], failure_tolerance: 'three' })).toEqual({ code: 'invalid_request_body', message: 'failure_tolerance: must be a whole number from 1 to 1000' });
    expect(refusal({ events: ['silence'], channels: ['ops'], silence_seconds: 30 })).toEqual({ code: 'invalid_request_body', message: 'silence_seconds: must be at least 60 seconds' });
    expect(refusal({ events: ['failure'], channels: ['ops'], realert_interval_seconds: 1.5 })).toEqual({ code: 'invalid_request_body', message: 'realert_interval_seconds: must be a whole number from 60 to 604800 seconds' });
    expect(refusal({ events: ['failure'], channels: ['ops'] })).toBeNull();
  });
});

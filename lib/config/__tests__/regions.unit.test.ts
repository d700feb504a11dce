/**
 * AWS's region form and partitions (SPEC §14 "Accounts and groups"): what the SigV4 check accepts,
 * what SCHEDULER_HOME_REGION may be, and the partition every ARN carries.
 */
import { describe, expect, it } from 'vitest';
import { arnPartition, isAwsRegion, loadConfig, partitionOf } from '../index';

describe('AWS regions', () => {
  it('names each region its partition', () => {
    const cases: [string, string][] = [
      ['us-east-1', 'aws'],
      ['eu-central-2', 'aws'],
      ['ap-southeast-4', 'aws'],
      ['il-central-1', 'aws'],
      ['us-gov-west-1', 'aws-us-gov'],
      ['cn-north-1', 'aws-cn'],
      ['cn-northwest-1', 'aws-cn'],
      ['us-iso-east-1', 'aws-iso'],
      ['us-isob-east-1', 'aws-iso-b'],
    ];
    expect(cases.map(([r]) => [r, partitionOf(r)])).toEqual(cases);
  });

  it('refuses what is not in the form; an ARN of such a region says aws', () => {
    for (const r of ['moon-1', 'us-east', 'useast1', 'US-EAST-1', 'us-east-1a', '', 'us--1', 'xx-east-1', 'aws-global']) {
      expect([r, isAwsRegion(r)]).toEqual([r, false]);
      expect(arnPartition(r)).toBe('aws');
    }
  });

  it('SCHEDULER_HOME_REGION defaults to us-east-1 and must be in the form', () => {
    expect(loadConfig({}).homeRegion).toBe('us-east-1');
    expect(loadConfig({ SCHEDULER_HOME_REGION: 'us-gov-west-1' }).homeRegion).toBe('us-gov-west-1');
    expect(() => loadConfig({ SCHEDULER_HOME_REGION: 'moon-1' })).toThrow(
      'Invalid configuration:\n  SCHEDULER_HOME_REGION: must be an AWS region name such as us-east-1, eu-central-2, us-gov-west-1 or cn-north-1',
    );
  });
});

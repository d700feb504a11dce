/**
 * A `FireContext` for delivery tests: a new schedule id, its ARN in `region` and account
 * `123456789012`, attempt 1 of a scheduled occurrence at `scheduledFor`.
 */
import { randomUUID } from 'node:crypto';
import { scheduleArn, type FireContext } from '../targets';

export const TEST_ACCOUNT = '123456789012';

export function testFire(region: string, scheduledFor: Date, overrides: Partial<FireContext> = {}): FireContext {
  const scheduleId = randomUUID();
  return {
    scheduleId,
    scheduledFor,
    trigger: 'schedule',
    attempt: 1,
    account: TEST_ACCOUNT,
    region,
    scheduleArn: scheduleArn({ region, account: TEST_ACCOUNT, group: 'default', name: `nightly-${scheduleId.slice(0, 8)}` }),
    ...overrides,
  };
}

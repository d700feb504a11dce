/**
 * Tests only: the data of a `schedules` row with every column set to a value of its kind (text with
 * unicode, nullable, integer, boolean, instant with milliseconds, nested JSON), for the Prisma model's
 * `create`: what the codec tests compare a raw read with (lib/db/sql/schedule-record.ts). Disabled and
 * paused unless `overrides` say otherwise.
 */
import { randomUUID } from 'node:crypto';

const at = (s: string) => new Date(s);

export function everyColumnSchedule(revisionId: string, orgId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    revisionId,
    alias: 'every-column',
    name: 'every-column',
    description: 'Sweep — ünïcode ✓',
    repeat: 'recurring_rate',
    rateExpression: 'rate(5 minutes)',
    rateAnchor: at('2030-01-15T10:00:15.123Z'),
    timezone: 'Asia/Kolkata',
    startDate: at('2030-01-01T00:00:00.000Z'),
    endDate: at('2031-01-01T00:00:00.999Z'),
    flexibleWindowMinutes: 15,
    retryMaximumAttempts: 3,
    retryMaximumEventAgeSeconds: 3600,
    deadLetterArn: 'arn:aws:sqs:us-east-1:123456789012:dlq',
    deadLetterRoleArn: 'arn:aws:iam::123456789012:role/dlq',
    actionAfterCompletion: 'delete',
    pauseAfterFailures: 4,
    consecutiveFailures: 2,
    enabled: false,
    pausedByType: 'org',
    pausedById: orgId,
    pausedAt: at('2030-01-02T03:04:05.006Z'),
    pauseNote: 'maintenance',
    pausedBulk: true,
    state: 'active',
    invocationTargetType: 'http',
    invocationTarget: { url: 'https://example.com/hook', headers: { 'x-a': '1' }, nested: [1, 2.5, null, true, 'x'] },
    facadeData: { group: 'default', flags: [true, false] },
    nextFireAt: at('2030-01-15T10:05:15.123Z'),
    nextScheduledFor: at('2030-01-15T10:05:00.000Z'),
    createdByType: 'org',
    createdById: orgId,
    skippedOccurrences: 7,
    version: 9,
    completionExpectSeconds: 120,
    overlapPolicy: 'skip',
    catchUpWindowSeconds: 600,
    catchUpMode: 'latest',
    catchUpMaxBurst: 5,
    createdAt: at('2029-12-31T23:59:59.999Z'),
    updatedAt: at('2030-01-01T00:00:00.001Z'),
    ...overrides,
  };
}

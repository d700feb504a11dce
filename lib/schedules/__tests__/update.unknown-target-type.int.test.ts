/**
 * `update_schedule` on a schedule whose stored `invocation_target_type` no contract of this build
 * declares (a row written outside the product, or by a newer version): a patch that keeps the target
 * is refused with `400 invalid_invocation_target` naming the type and what to do (not zod's
 * "Invalid discriminator value"), nothing is written; a patch that replaces the target saves. On the
 * dialect of TEST_DATABASE.
 */
import { expect, it } from 'vitest';
import { DomainError } from '../../errors';
import { createSchedule, updateSchedule } from '..';
import { TEST_LIMITS } from '../../testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';

const w = useSeededScheduler();

it('refuses a patch that keeps an unknown stored target type, naming it; a patch with a new target saves', async () => {
  const scope = { db: w.db, actor: w.actor(), revision: await w.scheduler(), limits: TEST_LIMITS };
  const created = await createSchedule({
    ...scope,
    now: new Date(),
    input: { alias: 'pigeon-post', repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', enabled: false, invocation_target: SEEDED_TARGET },
  });
  await w.db.schedule.update({ where: { id: created.id }, data: { invocationTargetType: 'carrier-pigeon', invocationTarget: { loft: 'north' } } });
  const before = await w.db.schedule.findUniqueOrThrow({ where: { id: created.id } });

  // A target sent without its type keeps the stored (unknown) type: refused the same way.
  for (const input of [{ enabled: true }, { description: 'renamed' }, { paused: { note: 'later' } }, { invocation_target: SEEDED_TARGET }]) {
    const refusal = await updateSchedule({ ...scope, now: new Date(), scheduleRef: 'pigeon-post', input }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal, JSON.stringify(input)).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      code: 'invalid_invocation_target',
      message:
        'this schedule\'s target type "carrier-pigeon" is not one this scheduler delivers to: send invocation_target_type and invocation_target to replace it, or delete the schedule',
      path: 'invocation_target_type',
    });
  }
  // Nothing was written.
  expect(await w.db.schedule.findUniqueOrThrow({ where: { id: created.id } })).toEqual(before);

  const saved = await updateSchedule({ ...scope, now: new Date(), scheduleRef: 'pigeon-post', input: { invocation_target_type: 'workflow', invocation_target: SEEDED_TARGET, enabled: true } });
  expect(saved).toMatchObject({ invocation_target_type: 'workflow', enabled: true, version: before.version + 1 });
});

/**
 * What this facade tells the fire engine about the schedules it saved (SPEC §13.3, §14), passed to
 * the engine by each process's edge (`schedulerEngine.with(EVENTBRIDGE_FIRE_FACTS)`, worker/main.ts
 * and lib/api/runtime.ts), never imported by it:
 * - a schedule saved here without `Target.Input` names its fires as it was saved (its ARN, region and
 *   account) and, for a workflow target, gets the default event as `input_data: [{"alias": "event",
 *   "value": <event>}]`;
 * - a schedule saved here names its default event's region after the region it was saved in;
 * - a scheduler's name in schedule ARNs is its schedule group's name.
 */
import { SCHEDULER_FACTS } from '../../schedules';
import type { EngineOverrides } from '../../schedules';
import { GROUP_SELECT, toGroupInfo } from './groups/group-info';
import { liveStoredData } from './stored-data';

/**
 * The identity a schedule saved here without `Target.Input` fires under (SPEC §13.3): its ARN, the
 * region it was saved in and its account, as stored; null for any other schedule (or once its target
 * was changed elsewhere).
 */
export function storedIdentity(facadeData: unknown): { account: string; region: string; scheduleArn: string } | null {
  const origin = liveStoredData(facadeData).defaultEvent;
  if (typeof origin !== 'object' || origin === null) return null;
  const { arn, region, account } = origin as Record<string, unknown>;
  return typeof arn === 'string' && typeof region === 'string' && typeof account === 'string' ? { account, region, scheduleArn: arn } : null;
}

/** The region a schedule was last saved in through this API, or null. */
export function storedRegion(facadeData: unknown): string | null {
  const region = liveStoredData(facadeData).region;
  return typeof region === 'string' ? region : null;
}

/** What a process's edge layers on the product's fire engine for this facade. */
export const EVENTBRIDGE_FIRE_FACTS: EngineOverrides = {
  facade: { storedIdentity, storedRegion },
  facts: {
    // SPEC §14: every scheduler blob is a schedule group; one not synced yet is named as it will be (its alias, else its id).
    async name(reader, scheduler, now) {
      const client = reader.kind === 'db' ? reader.db : reader.tx;
      const group = await client.scheduleGroup.findUnique({ where: { blobId: scheduler.blobId }, select: GROUP_SELECT });
      return group ? toGroupInfo(group).name : SCHEDULER_FACTS.name(reader, scheduler, now);
    },
  },
};

/**
 * The twelve operations (SPEC §14, EVENTBRIDGE.md §2). Each one: validated input → one domain call
 * (lib/schedules) → the model's output shape. Every success is HTTP 200; Delete/Tag/Untag answer `{}`.
 */
import { createSchedule, deleteSchedule, updateSchedule } from '../../schedules';
import { getGroupSchedule, listGroupSchedules } from './groups/group-schedules';
import type { ScheduleGroupInfo } from './groups/group-info';
import { createScheduleGroup, deleteScheduleGroup, getScheduleGroup, listScheduleGroups, tagScheduleGroup, untagScheduleGroup } from './groups/schedule-group-verbs';
import { EVENTBRIDGE_SAVE_RULES } from './save-rules';
import { withClientToken } from './client-token';
import { toAwsError, type RefusalSubject } from './domain-errors';
import { AwsError } from './errors';
import { keepUnexpressedFields, toDomainSchedule, toWireSchedule, toWireSummary } from './schedule-mapping';
import type { OperationName } from './validate';
import {
  decodeNextToken,
  DEFAULT_GROUP_NAME,
  encodeNextToken,
  groupArn,
  groupNameOfArn,
  scheduleArn,
  toWireTime,
  type EventBridgeContext,
  type WireScheduleInput,
} from './wire';

type Input = Record<string, unknown>;
type Operation = (ctx: EventBridgeContext, input: Input) => Promise<object>;

/** Default page size when MaxResults is absent (AWS documents none; moto uses 50). */
const DEFAULT_PAGE_SIZE = 50;

/** Who acts, in which org, region and instant: what every group verb takes (SPEC §14: a request sees only its region's groups). */
const inRegion = (ctx: EventBridgeContext) => ({ db: ctx.db, actor: ctx.actor, orgId: ctx.orgId, scope: { region: ctx.region, homeRegion: ctx.homeRegion }, now: ctx.now });

/** Run a domain call; map its refusal through the one table. */
async function domain<T>(ctx: EventBridgeContext, subject: RefusalSubject, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw toAwsError(e, ctx, subject);
  }
}

const tagsIn = (tags: unknown) => ((tags as { Key: string; Value: string }[] | undefined) ?? []).map((t) => ({ key: t.Key, value: t.Value }));
const tagsOut = (g: ScheduleGroupInfo) => g.tags.map((t) => ({ Key: t.key, Value: t.value }));

function groupOut(ctx: EventBridgeContext, g: ScheduleGroupInfo) {
  return { Arn: groupArn(ctx, g.name), CreationDate: toWireTime(g.createdAt), LastModificationDate: toWireTime(g.updatedAt), Name: g.name, State: 'ACTIVE' };
}

/** The group a tag operation's ResourceArn names. Only schedule-group ARNs take tags (the model's pattern). */
function taggedGroup(ctx: EventBridgeContext, arn: string): string {
  const name = groupNameOfArn(ctx, arn);
  if (name === null) throw new AwsError('ResourceNotFoundException', `Resource ${arn} does not exist.`);
  return name;
}

const pageSizeOf = (input: Input) => (input.MaxResults as number | undefined) ?? DEFAULT_PAGE_SIZE;

const saveSubject = (op: string, ctx: EventBridgeContext, w: WireScheduleInput, group: string): RefusalSubject => ({
  operation: op,
  resourceArn: scheduleArn(ctx, group, w.Name),
  scheduleName: w.Name,
  expression: w.ScheduleExpression,
  timezone: w.ScheduleExpressionTimezone ?? 'UTC',
  targetArn: w.Target.Arn,
});

export const OPERATIONS: Record<OperationName, Operation> = {
  async CreateSchedule(ctx, input) {
    const w = input as unknown as WireScheduleInput;
    const group = w.GroupName ?? DEFAULT_GROUP_NAME;
    const subject = saveSubject('CreateSchedule', ctx, w, group);
    const { ClientToken, ...params } = w;
    return withClientToken(ctx, 'CreateSchedule', ClientToken, params, { ScheduleArn: scheduleArn(ctx, group, w.Name) }, (remember) =>
      domain(ctx, { ...subject, groupName: group }, async () => {
        // `write`: the region's `default` is made here, never by a read (decision 360).
        const target = await getScheduleGroup({ ...inRegion(ctx), name: group, needed: 'write' });
        const mapped = toDomainSchedule(w, ctx, group);
        await domain(ctx, subject, () =>
          createSchedule({
            db: ctx.db,
            actor: ctx.actor,
            revision: { id: target.revisionId, blobId: target.blobId },
            input: mapped.input,
            facadeData: mapped.eventbridge,
            name: w.Name,
            aliasFromName: true,
            rules: EVENTBRIDGE_SAVE_RULES,
            limits: ctx.limits,
            httpAllowList: ctx.httpAllowList,
            now: ctx.now,
            alsoInTransaction: remember,
          }),
        );
      }),
    );
  },

  async GetSchedule(ctx, input) {
    const name = input.Name as string;
    const group = (input.GroupName as string | undefined) ?? DEFAULT_GROUP_NAME;
    const gs = await domain(ctx, { operation: 'GetSchedule', resourceArn: scheduleArn(ctx, group, name), scheduleName: name, groupName: group }, () =>
      getGroupSchedule({ ...inRegion(ctx), groupName: group, name, needed: 'read' }),
    );
    return toWireSchedule(gs, ctx);
  },

  async UpdateSchedule(ctx, input) {
    const w = input as unknown as WireScheduleInput;
    const group = w.GroupName ?? DEFAULT_GROUP_NAME;
    const subject = saveSubject('UpdateSchedule', ctx, w, group);
    const { ClientToken, ...params } = w;
    return withClientToken(ctx, 'UpdateSchedule', ClientToken, params, { ScheduleArn: scheduleArn(ctx, group, w.Name) }, async (remember) => {
      const found = await domain(ctx, { ...subject, groupName: group }, () =>
        getGroupSchedule({ ...inRegion(ctx), groupName: group, name: w.Name, needed: 'write' }),
      );
      const mapped = toDomainSchedule(w, ctx, group);
      keepUnexpressedFields(mapped.input, found.schedule);
      await domain(ctx, subject, () =>
        updateSchedule({
          db: ctx.db,
          actor: ctx.actor,
          revision: { id: found.group.revisionId, blobId: found.group.blobId },
          scheduleRef: found.schedule.id,
          // Full replacement (EVENTBRIDGE.md §3.3): every field is sent, absent ones as their defaults.
          input: mapped.input,
          facadeData: mapped.eventbridge,
          rules: EVENTBRIDGE_SAVE_RULES,
          limits: ctx.limits,
          httpAllowList: ctx.httpAllowList,
          now: ctx.now,
          alsoInTransaction: remember,
        }),
      );
    });
  },

  async DeleteSchedule(ctx, input) {
    const name = input.Name as string;
    const group = (input.GroupName as string | undefined) ?? DEFAULT_GROUP_NAME;
    const subject = { operation: 'DeleteSchedule', resourceArn: scheduleArn(ctx, group, name), scheduleName: name };
    return withClientToken(ctx, 'DeleteSchedule', input.ClientToken as string | undefined, { Name: name, GroupName: group }, {}, async (remember) => {
      const found = await domain(ctx, { ...subject, groupName: group }, () =>
        getGroupSchedule({ ...inRegion(ctx), groupName: group, name, needed: 'write' }),
      );
      await domain(ctx, subject, () =>
        deleteSchedule({ db: ctx.db, actor: ctx.actor, revision: { id: found.group.revisionId, blobId: found.group.blobId }, scheduleRef: found.schedule.id, now: ctx.now, alsoInTransaction: remember }),
      );
    });
  },

  async ListSchedules(ctx, input) {
    const group = input.GroupName as string | undefined;
    const after = input.NextToken
      ? decodeNextToken(input.NextToken as string, (c): c is { t: number; id: string } & Record<string, unknown> => typeof c.t === 'number' && typeof c.id === 'string')
      : null;
    const page = await domain(ctx, { operation: 'ListSchedules', resourceArn: scheduleArn(ctx, group ?? '*', '*'), groupName: group }, () =>
      listGroupSchedules({
        ...inRegion(ctx),
        groupName: group,
        namePrefix: input.NamePrefix as string | undefined,
        enabled: input.State === undefined ? undefined : input.State === 'ENABLED',
        after: after ? { createdAt: new Date(after.t), id: after.id } : null,
        pageSize: pageSizeOf(input),
      }),
    );
    return {
      Schedules: page.items.map((gs) => toWireSummary(gs, ctx)),
      ...(page.next ? { NextToken: encodeNextToken({ t: page.next.createdAt.getTime(), id: page.next.id }) } : {}),
    };
  },

  async CreateScheduleGroup(ctx, input) {
    const name = input.Name as string;
    const subject = { operation: 'CreateScheduleGroup', resourceArn: groupArn(ctx, name), groupName: name };
    const { ClientToken, ...params } = input;
    return withClientToken(ctx, 'CreateScheduleGroup', ClientToken as string | undefined, params, { ScheduleGroupArn: groupArn(ctx, name) }, async (remember) => {
      await domain(ctx, subject, () => createScheduleGroup({ ...inRegion(ctx), name, tags: tagsIn(input.Tags), alsoInTransaction: remember }));
    });
  },

  async GetScheduleGroup(ctx, input) {
    const name = input.Name as string;
    const g = await domain(ctx, { operation: 'GetScheduleGroup', resourceArn: groupArn(ctx, name), groupName: name }, () =>
      getScheduleGroup({ ...inRegion(ctx), name }),
    );
    return groupOut(ctx, g);
  },

  async DeleteScheduleGroup(ctx, input) {
    const name = input.Name as string;
    return withClientToken(ctx, 'DeleteScheduleGroup', input.ClientToken as string | undefined, { Name: name }, {}, async (remember) => {
      await domain(ctx, { operation: 'DeleteScheduleGroup', resourceArn: groupArn(ctx, name), groupName: name }, () =>
        deleteScheduleGroup({ ...inRegion(ctx), name, alsoInTransaction: remember }),
      );
    });
  },

  async ListScheduleGroups(ctx, input) {
    const after = input.NextToken
      ? decodeNextToken(input.NextToken as string, (c): c is { n: string } & Record<string, unknown> => typeof c.n === 'string')
      : null;
    const page = await domain(ctx, { operation: 'ListScheduleGroups', resourceArn: groupArn(ctx, '*') }, () =>
      listScheduleGroups({
        ...inRegion(ctx),
        namePrefix: input.NamePrefix as string | undefined,
        afterName: after?.n ?? null,
        pageSize: pageSizeOf(input),
      }),
    );
    return { ScheduleGroups: page.groups.map((g) => groupOut(ctx, g)), ...(page.nextName ? { NextToken: encodeNextToken({ n: page.nextName }) } : {}) };
  },

  async TagResource(ctx, input) {
    const arn = input.ResourceArn as string;
    const name = taggedGroup(ctx, arn);
    await domain(ctx, { operation: 'TagResource', resourceArn: arn, groupName: name }, () =>
      tagScheduleGroup({ ...inRegion(ctx), name, tags: tagsIn(input.Tags) }),
    );
    return {};
  },

  async UntagResource(ctx, input) {
    const arn = input.ResourceArn as string;
    const name = taggedGroup(ctx, arn);
    const keys = input.TagKeys as string[];
    await domain(ctx, { operation: 'UntagResource', resourceArn: arn, groupName: name }, () =>
      untagScheduleGroup({ ...inRegion(ctx), name, keys }),
    );
    return {};
  },

  async ListTagsForResource(ctx, input) {
    const arn = input.ResourceArn as string;
    const name = taggedGroup(ctx, arn);
    const g = await domain(ctx, { operation: 'ListTagsForResource', resourceArn: arn, groupName: name }, () =>
      getScheduleGroup({ ...inRegion(ctx), name }),
    );
    return { Tags: tagsOut(g) };
  },
};

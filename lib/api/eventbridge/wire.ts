/**
 * Wire shapes of the EventBridge-compatible API (SPEC §14) as the model names them, and the pure
 * conversions every operation shares: ARNs, epoch-second timestamps, opaque NextTokens.
 */
import type { Actor } from '../../auth';
import { arnPartition, type HttpAllowList, type Limits } from '../../config';
import { scheduleArn as ruleScheduleArn } from '../../schedules';
import type { Runtime } from '../runtime';
import { AwsError } from './errors';
import { isWellFormed } from '../body';

/** What one verified request acts with. */
export interface EventBridgeContext {
  db: Runtime['db'];
  limits: Limits;
  /** Webhook destinations allowed although private (SCHEDULER_HTTP_ALLOWED_HOSTS, SPEC §13.1); absent: none. */
  httpAllowList?: HttpAllowList;
  /** The request's instant (UTC). */
  now: Date;
  /** The region the request was signed for (AWS's form, SPEC §14): it sees only that region's groups, and every ARN answered carries it. */
  region: string;
  /** The region of the schedulers the web app and the product API make (SCHEDULER_HOME_REGION). */
  homeRegion: string;
  /** The org (AWS account) of the access key pair, and its 12-digit id. */
  orgId: string;
  accountId: string;
  /** Who acts: the pair's org or user, capped at the pair's role. */
  actor: Actor;
  accessKeyId: string;
}

export interface WireRetryPolicy {
  MaximumEventAgeInSeconds?: number;
  MaximumRetryAttempts?: number;
}

export interface WireTarget {
  Arn: string;
  RoleArn: string;
  Input?: string;
  RetryPolicy?: WireRetryPolicy;
  DeadLetterConfig?: { Arn?: string };
  SqsParameters?: { MessageGroupId?: string };
  EventBridgeParameters?: { DetailType: string; Source: string };
  EcsParameters?: Record<string, unknown>;
  KinesisParameters?: { PartitionKey: string };
  SageMakerPipelineParameters?: Record<string, unknown>;
}

export interface WireFlexibleTimeWindow {
  Mode: 'OFF' | 'FLEXIBLE';
  MaximumWindowInMinutes?: number;
}

/** CreateSchedule / UpdateSchedule input (the same shape). */
export interface WireScheduleInput {
  Name: string;
  GroupName?: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  StartDate?: number | string;
  EndDate?: number | string;
  Description?: string;
  State?: 'ENABLED' | 'DISABLED';
  FlexibleTimeWindow: WireFlexibleTimeWindow;
  Target: WireTarget;
  ActionAfterCompletion?: 'NONE' | 'DELETE';
  KmsKeyArn?: string;
  ClientToken?: string;
}

export const DEFAULT_GROUP_NAME = 'default';
/** AWS's server-side retry default, returned by GetSchedule when none was sent (EVENTBRIDGE.md §3.2). */
export const DEFAULT_RETRY_POLICY = { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 } as const;

/** A schedule's ARN in the request's region, its partition and account (the rule is lib/targets' `scheduleArn`, SPEC §14). */
export const scheduleArn = (ctx: Pick<EventBridgeContext, 'region' | 'accountId'>, group: string, name: string) =>
  ruleScheduleArn({ region: ctx.region, account: ctx.accountId, group, name });
export const groupArn = (ctx: Pick<EventBridgeContext, 'region' | 'accountId'>, group: string) =>
  `arn:${arnPartition(ctx.region)}:scheduler:${ctx.region}:${ctx.accountId}:schedule-group/${group}`;

/** The group name of a schedule-group ARN of this account and the request's region, or null (SPEC §14: regions are isolated). */
export function groupNameOfArn(ctx: Pick<EventBridgeContext, 'accountId' | 'region'>, arn: string): string | null {
  const m = /^arn:aws(?:-[a-z-]+)?:scheduler:([a-z0-9-]+):(\d{12}):schedule-group\/([0-9a-zA-Z\-_.]+)$/.exec(arn);
  return m && m[1] === ctx.region && m[2] === ctx.accountId ? m[3] : null;
}

/** A wire timestamp (epoch seconds, fractions allowed; or an ISO 8601 string) as a Date. */
export function fromWireTime(v: number | string): Date {
  return typeof v === 'number' ? new Date(Math.round(v * 1000)) : new Date(v);
}

/** A Date (or ISO string) as epoch seconds, milliseconds kept as the fraction. */
export function toWireTime(d: Date | string): number {
  return (typeof d === 'string' ? Date.parse(d) : d.getTime()) / 1000;
}

/**
 * The instants a cursor may name, in epoch ms: 1970-01-01 through 9999-12-31 UTC. Every instant this
 * server hands out (a creation time) is inside; one outside (a Date may reach ±8.64e15, year
 * ±275760) would reach the database, where PostgreSQL cannot take it: a forged token is refused here.
 */
const MAX_CURSOR_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An opaque NextToken for a cursor (base64url of its JSON), and back. */
export function encodeNextToken(cursor: object): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor }), 'utf8').toString('base64url');
}

/**
 * The cursor of a NextToken this server handed out: its JSON object, `v: 1`, every string well-formed
 * and every number an integer instant from 1970 through year 9999 (`MAX_CURSOR_MS`), passing `valid`.
 * @throws AwsError `ValidationException` for any other token (SPEC §14: a forged one is never a 500).
 */
export function decodeNextToken<T>(token: string, valid: (c: Record<string, unknown>) => c is Record<string, unknown> & T): T {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    const sane = (v: unknown) => (typeof v === 'string' ? isWellFormed(v) && v.length <= 1024 : typeof v === 'number' ? Number.isSafeInteger(v) && v >= 0 && v <= MAX_CURSOR_MS : true);
    if (c && typeof c === 'object' && !Array.isArray(c) && c.v === 1 && Object.values(c).every(sane) && valid(c)) return c;
  } catch {
    // fall through
  }
  throw new AwsError('ValidationException', 'The NextToken is not valid.');
}

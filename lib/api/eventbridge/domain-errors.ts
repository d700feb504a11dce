/**
 * Domain refusals (SPEC error codes) → AWS errors (EVENTBRIDGE.md §4), in one table. The facade
 * validates nothing of a schedule's meaning itself: the domain refuses, this maps.
 */
import { isConditionCode, isDomainError, toError } from '../../errors';
import { edgeError } from '../edge-error';
import { AwsError } from './errors';
import type { EventBridgeContext } from './wire';
import { logger } from '../../log';

/** What the message of a refusal may name: the operation, the schedule or group, the expression… */
export interface RefusalSubject {
  operation: string;
  /** The resource the operation addresses (for AccessDeniedException). */
  resourceArn: string;
  scheduleName?: string;
  groupName?: string;
  expression?: string;
  timezone?: string;
  targetArn?: string;
}

/**
 * A condition of the installation as lib/api `edgeError` names it (storage full or read-only, the
 * database out of reach or the connection lost: lib/errors `isConditionCode`) as AWS's type for a
 * server-side fault, `InternalServerException`, which the SDKs retry, with the product's sentence
 * that says whether the request ran; null for any other error.
 */
export function conditionAwsError(named: unknown): AwsError | null {
  return isDomainError(named) && isConditionCode(named.code) ? new AwsError('InternalServerException', named.message, { cause: named }) : null;
}

/**
 * `thrown` as an AwsError. A DomainError maps by code; an AwsError passes; a storage or database
 * fault (lib/errors) is `InternalServerException` with the product's sentence for it; anything else
 * is logged and becomes `InternalServerException` without details.
 */
export function toAwsError(error: unknown, ctx: Pick<EventBridgeContext, 'accountId' | 'accessKeyId'>, subject: RefusalSubject): AwsError {
  if (error instanceof AwsError) return error;
  const thrown = edgeError(error, 'EventBridge API error', { operation: subject.operation });
  const condition = conditionAwsError(thrown);
  if (condition) return condition;
  if (!isDomainError(thrown)) {
    const err = toError(thrown);
    logger.error('unhandled EventBridge API error', { operation: subject.operation, error: err.message, stack: err.stack });
    return new AwsError('InternalServerException', 'Unexpected error during processing of request.');
  }
  const e = thrown;
  const v = (m: string) => new AwsError('ValidationException', m, { cause: e });
  switch (e.code) {
    case 'not_found':
      return new AwsError('ResourceNotFoundException', subject.groupName !== undefined ? `Schedule group ${subject.groupName} does not exist.` : e.message, { cause: e });
    case 'schedule_not_found':
      return new AwsError('ResourceNotFoundException', `Schedule ${subject.scheduleName ?? ''} does not exist.`, { cause: e });
    case 'forbidden':
    case 'unauthorized':
      return new AwsError(
        'AccessDeniedException',
        `User: arn:aws:iam::${ctx.accountId}:user/${ctx.accessKeyId} is not authorized to perform: scheduler:${subject.operation} on resource: ${subject.resourceArn} (${e.message})`,
        { cause: e },
      );
    case 'name_taken':
    case 'alias_taken':
      return new AwsError(
        'ConflictException',
        subject.operation.includes('Group') ? `Schedule group ${subject.groupName} already exists.` : `Schedule ${subject.scheduleName} already exists.`,
        { cause: e },
      );
    case 'schedule_completed':
      return new AwsError('ConflictException', `Schedule ${subject.scheduleName} has completed and can no longer be updated; delete it and create it again.`, { cause: e });
    case 'invalid_cron_expression':
    case 'invalid_invocation_time':
      return v(`Invalid Schedule Expression ${subject.expression ?? ''}.`);
    case 'interval_too_short':
      return v(`Invalid Schedule Expression ${subject.expression ?? ''}. ${e.message}.`);
    case 'invalid_timezone':
      return v(`Invalid ScheduleExpressionTimezone ${subject.timezone ?? ''}.`);
    case 'invalid_date_window':
      if (e.path === 'start_date') return v('The StartDate you specify cannot be earlier than 5 minutes ago.');
      return v(/past/.test(e.message) ? 'The EndDate you specify cannot be earlier than the current time.' : 'The EndDate you specify must be later than the StartDate.');
    case 'invalid_invocation_target':
    case 'invalid_workflow_reference':
      return v(`Invalid target ${subject.targetArn ?? ''}: ${e.message}.`);
    case 'default_scheduler_protected':
      return v('Cannot delete the default schedule group.');
    case 'schedule_limit_reached':
    case 'group_limit_reached':
      return new AwsError('ServiceQuotaExceededException', `${e.message}.`, { cause: e });
    case 'limit_exceeded':
    case 'rate_limited':
      return new AwsError('ThrottlingException', e.message, { cause: e });
    case 'invalid_request_body':
    case 'invalid_alias':
      return v(e.message);
    default:
      return new AwsError('InternalServerException', 'Unexpected error during processing of request.', { cause: e });
  }
}

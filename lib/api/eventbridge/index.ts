/** The EventBridge Scheduler-compatible API (SPEC §14): AWS paths, SigV4, wire shapes ↔ the contract, AWS errors. */
export { handleEventBridgeRequest, type HandleOptions } from './handle-request';
export { verifySigV4, canonicalRequest, canonicalUri, canonicalQuery, signature, uriEscape, MAX_CLOCK_SKEW_MS, type SignedRequest } from './sigv4';
export { validateInput } from './validate';
export { AwsError, AWS_ERROR_STATUS, type AwsErrorCode } from './errors';
export { parseWorkflowArn, workflowArnOf } from './workflow-arn';
export { scheduleArn, groupArn } from './wire';
export { EVENTBRIDGE_FIRE_FACTS, storedIdentity, storedRegion } from './fire-facts';
export { EVENTBRIDGE_SAVE_RULES, EVENTBRIDGE_START_DATE_GRACE_MS } from './save-rules';
export { eventBridgeViewOfScheduler, type EventBridgeView } from './groups/eventbridge-view';
export { DEFAULT_GROUP, EVENTBRIDGE_NAME, GROUPS_PER_ORG, type GroupTag, type ScheduleGroupInfo } from './groups/group-info';

export { json, errorResponse, requireApiActor, withActor, credentialOf, methodNotAllowed } from './http';
export { handleRevisionCommand, readJsonObject } from './revision-command';
export { healthReport, type HealthReport } from './health';
export { metricsText, metricsAllowed, type MetricsResponse } from './metrics';
export { guardRequest, proxyMatcher, resolveForwarding, plainAddress, CLIENT_ADDRESS_HEADER, API_BODY_LIMIT_BYTES, ACTION_BODY_LIMIT_BYTES, type EdgeRequest, type Forwarding } from './edge-guard';
export type { CommandContext, CommandHandler } from '../workflows';
export { listBlobsResponse, describeBlobResponse, createBlobResponse } from './discovery';
export { buildOpenApiDocument } from './openapi';
export { loginResponse, logoutResponse, acceptInvitationResponse, sessionTokenOf } from './web-login';

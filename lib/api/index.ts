export { json, errorResponse, requireApiActor, withActor, credentialOf, methodNotAllowed } from './http';
export { handleRevisionCommand, readJsonObject } from './revision-command';
export { healthReport, type HealthReport } from './health';
export { metricsText, type MetricsResponse } from './metrics';
export type { CommandContext, CommandHandler } from '../workflows';
export { listBlobsResponse, describeBlobResponse, createBlobResponse } from './discovery';
export { buildOpenApiDocument } from './openapi';
export { loginResponse, logoutResponse, sessionTokenOf } from './web-login';
export { handleEventBridgeRequest } from './eventbridge';

/**
 * The OpenAPI 3.1 document of the command endpoint, generated from the same zod schemas that validate
 * requests (so it cannot drift from them). Served at `GET /api/v1/openapi.json`.
 */
import { z } from 'zod';
import { ERROR_STATUS } from '../errors';
import {
  InvocationTargetSchema,
  ListExecutionsParams,
  ListSchedulesParams,
  ScheduleFieldsSchema,
  ScheduleIdParams,
  ScheduleUpdateInput,
  SetAllEnabledParams,
  RUN_STATUSES,
  RUN_TRIGGERS,
  INVOCATION_ERRORS,
  INVOCATION_TARGET_TYPES,
  REPEATS,
  SCHEDULE_STATES,
} from '../schedules';

const schema = (s: z.ZodType) => z.toJSONSchema(s, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });

function commandBody(command: string, params: z.ZodType, engine = 'scheduler_blobhub') {
  const p = schema(params) as { properties?: Record<string, unknown>; required?: string[] };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['engine', 'command', ...(p.required ?? [])],
    properties: { engine: { const: engine }, command: { const: command }, ...(p.properties ?? {}) },
  };
}

/** Build the document (pure; cheap enough to build per request, cached by the route). */
export function buildOpenApiDocument(): Record<string, unknown> {
  const ScheduleOut = {
    type: 'object',
    required: ['id', 'repeat', 'timezone', 'enabled', 'state', 'invocation_target_type', 'invocation_target', 'next_fire_at', 'created_by', 'skipped_occurrences', 'created_at', 'updated_at'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      alias: { type: 'string', description: 'Omitted when none (never null).' },
      name: { type: 'string', description: 'Read-only: the name in its schedule group on the EventBridge-compatible API (SPEC §14).' },
      description: { type: 'string', maxLength: 256, description: 'Omitted when none.' },
      repeat: { enum: [...REPEATS] },
      invocation_time: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$', description: 'one_time only: local wall time in `timezone`.' },
      cron_expression: { type: 'string', description: 'recurring_cron only: the six inner AWS fields.' },
      timezone: { type: 'string', description: 'IANA zone name.' },
      start_date: { type: 'string', format: 'date-time' },
      end_date: { type: 'string', format: 'date-time' },
      enabled: { type: 'boolean' },
      state: { enum: [...SCHEDULE_STATES] },
      invocation_target_type: { enum: [...INVOCATION_TARGET_TYPES], description: '`http` and `aws` targets are stored by the EventBridge-compatible API only (SPEC §14).' },
      invocation_target: schema(InvocationTargetSchema),
      next_fire_at: { type: ['string', 'null'], format: 'date-time' },
      created_by: { type: 'object', properties: { type: { enum: ['user', 'org'] }, id: { type: 'string' } } },
      skipped_occurrences: { type: 'integer', minimum: 0 },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
    },
  };
  const Run = {
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid' },
      schedule_id: { type: 'string', format: 'uuid' },
      scheduled_for: { type: 'string', format: 'date-time' },
      trigger: { enum: [...RUN_TRIGGERS] },
      created_at: { type: 'string', format: 'date-time' },
      invocation_target_type: { const: 'workflow' },
      invocation_target: schema(InvocationTargetSchema),
      description: { type: 'string' },
      status: { enum: [...RUN_STATUSES] },
      result: {
        oneOf: [
          { type: 'object', required: ['execution_id', 'revision_id', 'session_id', 'definition_id'], properties: { execution_id: { type: 'string' }, revision_id: { type: 'string' }, session_id: { type: 'string' }, definition_id: { type: 'string' } } },
          { type: 'object', required: ['error', 'limit', 'message'], properties: { error: { const: 'limit_exceeded' }, limit: { type: 'string' }, message: { type: 'string' } } },
          { type: 'object', required: ['error'], properties: { error: { enum: [...INVOCATION_ERRORS] }, message: { type: 'string' } } },
        ],
      },
    },
  };
  const bodies = {
    create_schedule: commandBody('create_schedule', ScheduleFieldsSchema),
    get_schedule: commandBody('get_schedule', ScheduleIdParams),
    update_schedule: commandBody('update_schedule', ScheduleUpdateInput.extend({ schedule_id: z.string() })),
    delete_schedule: commandBody('delete_schedule', ScheduleIdParams),
    list_schedules: commandBody('list_schedules', ListSchedulesParams),
    list_executions: commandBody('list_executions', ListExecutionsParams),
    run_schedule: commandBody('run_schedule', ScheduleIdParams),
    set_all_enabled: commandBody('set_all_enabled', SetAllEnabledParams),
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Scheduler API', version: '1.0.0', description: 'One endpoint per revision; `engine` and `command` select the operation (SPEC §3).' },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: {
        Schedule: ScheduleOut,
        Run,
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { enum: Object.keys(ERROR_STATUS) }, message: { type: 'string' }, path: { type: 'string' } } } },
        },
        ...Object.fromEntries(Object.entries(bodies).map(([k, v]) => [`${k}_request`, v])),
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths: {
      '/api/v1/revisions/{revision_id}/data': {
        post: {
          summary: 'Run a scheduler or workflow command on a revision',
          parameters: [{ name: 'revision_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { oneOf: Object.keys(bodies).map((k) => ({ $ref: `#/components/schemas/${k}_request` })) } } } },
          responses: {
            '200': { description: 'The command\'s object: `{schedule}`, `{schedules, last_schedule_id}`, `{executions, last_execution_id, schedule?}`, `{execution}`, `{updated}` or `{}`.' },
            ...Object.fromEntries(
              [...new Set(Object.values(ERROR_STATUS))].sort().map((status) => [
                String(status),
                { description: Object.entries(ERROR_STATUS).filter(([, s]) => s === status).map(([c]) => c).join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
              ]),
            ),
          },
        },
      },
      '/api/v1/access-keys': {
        get: { summary: 'The access key pairs acting as the calling key (SPEC §14)', responses: { '200': { description: '`{access_keys}`' } } },
        post: { summary: 'Issue an access key pair acting as the calling key; body `{name, role, org?}`; the secret is answered once', responses: { '200': { description: '`{access_key, secret_access_key}`' } } },
      },
      '/api/v1/access-keys/{id}': { delete: { summary: 'Revoke an access key pair (SPEC §14)', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }], responses: { '200': { description: '`{access_key}`' } } } },
      '/api/v1/orgs/{org}/access-keys': { get: { summary: "The calling key's access key pairs in an org (SPEC §14)", parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: '`{access_keys}`' } } } },
      '/api/v1/orgs/{org}/blobs': { get: { summary: 'Blobs of an org the caller can read (SPEC §3.3)', parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: '`{blobs}`' } } } },
      '/api/v1/orgs/{org}/blobs/{blob}': { get: { summary: 'One blob and its revisions (SPEC §3.3)', parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }, { name: 'blob', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'The blob description' } } } },
    },
  };
}

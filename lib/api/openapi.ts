/**
 * The OpenAPI 3.1 document of the API (`GET /api/v1/openapi.json`), generated from the contract's zod
 * schemas, request and answer alike: the command tables `SCHEDULER_COMMANDS` and `WORKFLOW_COMMANDS`
 * (one `{command}_request` and `{command}_response` component each) and the blob routes of SPEC §3.3.
 * The handlers are typed against the same tables, and the integration suite checks every answer the
 * API sends against them, so the document cannot drift from the code.
 *
 * The command endpoint is one path; its request body is a `oneOf` discriminated by `command`, its 200
 * answer a `oneOf` of the answers, and `x-commands` maps each command to its request and response.
 */
import { z } from 'zod';
import { AwsSettingsAnswer, AwsSettingsUpdateInput } from '../auth/contract';
import { ERROR_STATUS, ErrorBodySchema } from '../errors';
import { AlertChannelAnswer, AlertChannelCreateInput, AlertChannelListAnswer, AlertChannelUpdateInput, AlertListPage, AlertRuleAnswer, AlertRuleListAnswer, AlertTestAnswer } from '../schedules/contract';
import {
  DeadLetterListPage,
  DeadLetterSchema,
  InvocationTargetSchema,
  MissingSessionSchema,
  RunListPage,
  RunAnswer,
  BackfillSchema,
  BackfillAnswer,
  BackfillDryRunSchema,
  BackfillScheduleAnswer,
  BackfillListPage,
  CatchUpSchema,
  RunResultSchema,
  RunSchema,
  ReplayAnswer,
  SCHEDULER_COMMANDS,
  ScheduleAnswer,
  ScheduleDryRunAnswer,
  ScheduleListPage,
  ScheduleSaveAnswer,
  ScheduleSchema,
  SetAllEnabledAnswer,
  SetMetricsPerScheduleAnswer,
  SigningSecretAnswer,
  SigningSecretInfoSchema,
  ActivityActorSchema,
  ActivityEntrySchema,
  ActivityListPage,
} from '../schedules/contract';
import {
  AuthEntitySchema,
  BLOB_ROUTES,
  BlobDescriptionSchema,
  BlobListSchema,
  JsonValueSchema,
  DefinitionAnswer,
  DefinitionPage,
  DefinitionSchema,
  EmptyAnswer,
  ExecutionAnswer,
  ExecutionSchema,
  RevisionAnswer,
  RevisionSchema,
  SessionAnswer,
  SessionPage,
  SessionSchema,
  WORKFLOW_COMMANDS,
  WorkflowExecutionPage,
  type CommandContract,
} from '../workflows/contract';

/** The named answer shapes, as components. Every command's and route's answer must be among them. */
const ANSWER_COMPONENTS: [string, z.ZodType][] = [
  ['Schedule', ScheduleSchema],
  ['InvocationTarget', InvocationTargetSchema],
  ['Run', RunSchema],
  ['RunResult', RunResultSchema],
  ['AuthEntity', AuthEntitySchema],
  ['ScheduleAnswer', ScheduleAnswer],
  ['ScheduleDryRunAnswer', ScheduleDryRunAnswer],
  ['MissingSession', MissingSessionSchema],
  ['ScheduleSaveAnswer', ScheduleSaveAnswer],
  ['ScheduleListPage', ScheduleListPage],
  ['RunListPage', RunListPage],
  ['RunAnswer', RunAnswer],
  ['SetAllEnabledAnswer', SetAllEnabledAnswer],
  ['SetMetricsPerScheduleAnswer', SetMetricsPerScheduleAnswer],
  ['DeadLetter', DeadLetterSchema],
  ['DeadLetterListPage', DeadLetterListPage],
  ['ReplayAnswer', ReplayAnswer],
  ['Backfill', BackfillSchema],
  ['BackfillAnswer', BackfillAnswer],
  ['BackfillDryRun', BackfillDryRunSchema],
  ['BackfillScheduleAnswer', BackfillScheduleAnswer],
  ['BackfillListPage', BackfillListPage],
  ['CatchUp', CatchUpSchema],
  ['ActivityActor', ActivityActorSchema],
  ['ActivityEntry', ActivityEntrySchema],
  ['ActivityListPage', ActivityListPage],
  ['SigningSecret', SigningSecretInfoSchema],
  ['SigningSecretAnswer', SigningSecretAnswer],
  ['EmptyAnswer', EmptyAnswer],
  ['Session', SessionSchema],
  ['Definition', DefinitionSchema],
  ['Execution', ExecutionSchema],
  ['Revision', RevisionSchema],
  ['SessionAnswer', SessionAnswer],
  ['DefinitionAnswer', DefinitionAnswer],
  ['ExecutionAnswer', ExecutionAnswer],
  ['RevisionAnswer', RevisionAnswer],
  ['SessionPage', SessionPage],
  ['DefinitionPage', DefinitionPage],
  ['WorkflowExecutionPage', WorkflowExecutionPage],
  ['BlobDescription', BlobDescriptionSchema],
  ['BlobList', BlobListSchema],
  ['AwsSettingsAnswer', AwsSettingsAnswer],
  ['AlertChannelAnswer', AlertChannelAnswer],
  ['AlertRuleAnswer', AlertRuleAnswer],
  ['AlertRuleList', AlertRuleListAnswer],
  ['AlertPage', AlertListPage],
  ['AlertChannelList', AlertChannelListAnswer],
  ['AlertTestAnswer', AlertTestAnswer],
  ['Error', ErrorBodySchema],
  ['JsonValue', JsonValueSchema],
];

/** The engines of SPEC §3 and their command tables. */
export const ENGINE_COMMANDS: Record<'scheduler_blobhub' | 'workflow_blobhub', Record<string, CommandContract>> = {
  scheduler_blobhub: SCHEDULER_COMMANDS,
  workflow_blobhub: WORKFLOW_COMMANDS,
};

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
type Json = Record<string, unknown>;

/** Generate the components of `registry` (io: `input` for requests, `output` for answers). */
function components(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output'): Record<string, Json> {
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      // `format: date-time` says it; zod's long equivalent pattern only clutters the document.
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    },
  });
  return Object.fromEntries(
    Object.entries(out.schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as Json;
      return [id, rest];
    }),
  );
}

/**
 * The request body of one command: `engine` and `command` (constants), then its parameters, strict
 * like the parameters themselves (an unknown key is `400 invalid_request_body`).
 */
export function commandRequestSchema(engine: string, command: string, contract: CommandContract): z.ZodObject {
  return z.strictObject({ engine: z.literal(engine), command: z.literal(command) }).extend(contract.params.shape);
}

/** Build the document (pure; cheap enough to build per request, cached by the route). */
export function buildOpenApiDocument(): Json {
  const answers = z.registry<{ id: string }>();
  for (const [id, schema] of ANSWER_COMPONENTS) answers.add(schema, { id });
  const answerId = (schema: z.ZodType, what: string): string => {
    const id = answers.get(schema)?.id;
    if (!id) throw new Error(`lib/api/openapi: the answer of ${what} is not a named component`);
    return id;
  };

  const requests = z.registry<{ id: string }>();
  requests.add(InvocationTargetSchema, { id: 'InvocationTargetInput' });
  requests.add(JsonValueSchema, { id: 'JsonValue' });
  requests.add(AwsSettingsUpdateInput, { id: 'AwsSettingsUpdate' });
  requests.add(AlertChannelCreateInput, { id: 'AlertChannelCreate' });
  requests.add(AlertChannelUpdateInput, { id: 'AlertChannelUpdate' });
  const commands: Record<string, { engine: string; summary: string; request: Json; response: Json }> = {};
  for (const [engine, table] of Object.entries(ENGINE_COMMANDS)) {
    for (const [command, contract] of Object.entries(table)) {
      requests.add(commandRequestSchema(engine, command, contract), { id: `${command}_request` });
      commands[command] = { engine, summary: contract.summary, request: ref(`${command}_request`), response: ref(`${command}_response`) };
    }
  }
  for (const [name, route] of Object.entries(BLOB_ROUTES)) {
    if (route.body) requests.add(route.body, { id: `${name}_request` });
  }

  const schemas: Record<string, Json> = { ...components(answers, 'output'), ...components(requests, 'input') };
  for (const table of Object.values(ENGINE_COMMANDS)) {
    for (const [command, contract] of Object.entries(table)) schemas[`${command}_response`] = ref(answerId(contract.answer, command));
  }

  const errorResponses = Object.fromEntries(
    [...new Set(Object.values(ERROR_STATUS))].sort().map((status) => [
      String(status),
      {
        description: Object.entries(ERROR_STATUS).filter(([, s]) => s === status).map(([c]) => c).join(', '),
        content: { 'application/json': { schema: ref('Error') } },
      },
    ]),
  );
  const json = (schema: Json) => ({ 'application/json': { schema } });
  const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });

  const blobPaths: Record<string, Record<string, Json>> = {};
  for (const [name, route] of Object.entries(BLOB_ROUTES)) {
    const params = [pathParam('org', 'Org id or alias.'), ...(route.path.includes('{blob}') ? [pathParam('blob', 'Blob id or alias.')] : [])];
    (blobPaths[route.path] ??= {})[route.method] = {
      operationId: name,
      summary: route.summary,
      parameters: params,
      ...(route.body ? { requestBody: { required: true, content: json(ref(`${name}_request`)) } } : {}),
      responses: { '200': { description: route.summary, content: json(ref(answerId(route.answer, name))) }, ...errorResponses },
    };
  }

  const answerRefs = [...new Set(Object.values(ENGINE_COMMANDS).flatMap((t) => Object.entries(t).map(([c, k]) => answerId(k.answer, c))))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scheduler API',
      version: '1.0.0',
      description: 'One endpoint per revision; `engine` and `command` select the operation (SPEC §3). `x-commands` names each command\'s request and response schema.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas,
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths: {
      '/api/v1/revisions/{revision_id}/data': {
        post: {
          operationId: 'revision_command',
          summary: 'Run a scheduler or workflow command on a revision',
          parameters: [{ name: 'revision_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          requestBody: {
            required: true,
            content: json({
              oneOf: Object.keys(commands).map((c) => ref(`${c}_request`)),
              discriminator: { propertyName: 'command', mapping: Object.fromEntries(Object.keys(commands).map((c) => [c, `#/components/schemas/${c}_request`])) },
            }),
          },
          responses: {
            '200': { description: 'The command\'s answer; see `x-commands` for which command answers which shape.', content: json({ oneOf: answerRefs.map(ref) }) },
            ...errorResponses,
          },
          'x-commands': commands,
        },
      },
      ...blobPaths,
      '/api/v1/access-keys': {
        get: { summary: 'The access key pairs acting as the calling key (SPEC §14)', responses: { '200': { description: '`{access_keys}`' } } },
        post: { summary: 'Issue an access key pair acting as the calling key; body `{name, role, org?}`; the secret is answered once', responses: { '200': { description: '`{access_key, secret_access_key}`' } } },
      },
      '/api/v1/access-keys/{id}': { delete: { summary: 'Revoke an access key pair (SPEC §14)', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }], responses: { '200': { description: '`{access_key}`' } } } },
      '/api/v1/orgs/{org}/aws': {
        get: {
          operationId: 'get_org_aws',
          summary: "The org's AWS settings (SPEC §13.5): credentials mode, ExternalId, allowed accounts. Its admins only.",
          parameters: [pathParam('org', 'Org id or alias.')],
          responses: { '200': { description: '`{aws}`', content: json(ref('AwsSettingsAnswer')) }, ...errorResponses },
        },
        patch: {
          operationId: 'update_org_aws',
          summary: 'Change `credentials` (`worker` only for orgs listed in SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS, else 400 invalid_request_body) and `allowed_accounts` (SPEC §13.5). Its admins, with a write key.',
          parameters: [pathParam('org', 'Org id or alias.')],
          requestBody: { required: true, content: json(ref('AwsSettingsUpdate')) },
          responses: { '200': { description: '`{aws}`', content: json(ref('AwsSettingsAnswer')) }, ...errorResponses },
        },
      },
      '/api/v1/orgs/{org}/aws/rotate-external-id': {
        post: {
          operationId: 'rotate_org_external_id',
          summary: "A new ExternalId (SPEC §13.5): AssumeRole is refused (`assume_role_failed`) until every role's trust policy names it. Its admins, with a write key.",
          parameters: [pathParam('org', 'Org id or alias.')],
          responses: { '200': { description: '`{aws}`', content: json(ref('AwsSettingsAnswer')) }, ...errorResponses },
        },
      },
      ...alertChannelPaths(pathParam, json, ref, errorResponses),
      '/api/v1/orgs/{org}/access-keys': { get: { summary: "The calling key's access key pairs in an org (SPEC §14)", parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: '`{access_keys}`' } } } },
    },
  };
}

/** SPEC §17: the org's alert channels (its admins; changes with a write key). */
function alertChannelPaths(pathParam: (name: string, description: string) => Json, json: (schema: Json) => Json, ref: (id: string) => Json, errors: Record<string, Json>): Record<string, Json> {
  const org = pathParam('org', 'Org id or alias.');
  const channel = pathParam('channel', 'Channel id or name.');
  const ok = (description: string, id: string) => ({ '200': { description, content: json(ref(id)) }, ...errors });
  return {
    '/api/v1/orgs/{org}/alert-channels': {
      get: { operationId: 'list_alert_channels', summary: "The org's alert channels (SPEC §17), secrets masked. Its admins only.", parameters: [org], responses: ok('`{channels}`', 'AlertChannelList') },
      post: {
        operationId: 'create_alert_channel',
        summary: 'A webhook (signed with its own `whsec_…`, answered here only), Slack-compatible or email channel (SPEC §17). Destinations follow SPEC §13.1.',
        parameters: [org],
        requestBody: { required: true, content: json(ref('AlertChannelCreate')) },
        responses: ok('`{channel, signing_secret?}`', 'AlertChannelAnswer'),
      },
    },
    '/api/v1/orgs/{org}/alert-channels/{channel}': {
      get: { operationId: 'get_alert_channel', summary: 'One alert channel, secrets masked (`••••`).', parameters: [org, channel], responses: ok('`{channel}`', 'AlertChannelAnswer') },
      patch: {
        operationId: 'update_alert_channel',
        summary: 'Rename, replace the config (a masked secret sent back keeps the stored one), or `rotate_secret` (a webhook: the new secret in this answer only).',
        parameters: [org, channel],
        requestBody: { required: true, content: json(ref('AlertChannelUpdate')) },
        responses: ok('`{channel, signing_secret?}`', 'AlertChannelAnswer'),
      },
      delete: { operationId: 'delete_alert_channel', summary: 'Delete a channel no rule names (`409 channel_in_use` names the rules that do); the alert log keeps its entries.', parameters: [org, channel], responses: { '200': { description: '`{}`' }, ...errors } },
    },
    '/api/v1/orgs/{org}/alert-channels/{channel}/test': {
      post: { operationId: 'test_alert_channel', summary: 'Send test: a sample alert now; answers what the channel answered.', parameters: [org, channel], responses: ok('`{ok, status?, message}`', 'AlertTestAnswer') },
    },
  };
}

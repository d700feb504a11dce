/**
 * `GET /api/v1/openapi.json` (SPEC §3): every command of both engines and every blob route has its
 * request and its response in the document, generated from the contract's zod schemas, and every
 * `$ref` resolves. The answers themselves are checked against the same schemas in
 * `commands.answers-match-contract.int.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SCHEDULER_COMMANDS } from '../../schedules/contract';
import { BLOB_ROUTES, WORKFLOW_COMMANDS } from '../../workflows/contract';
import { buildOpenApiDocument, ENGINE_COMMANDS } from '../openapi';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const schemas = doc.components.schemas as Record<string, Json>;
const commandOp = doc.paths['/api/v1/revisions/{revision_id}/data'].post as Json;

/** The component a `$ref` names, following `$ref` chains. */
function resolve(node: Json): Json {
  let n = node;
  for (let i = 0; n.$ref && i < 10; i++) {
    const m = /^#\/components\/schemas\/([^/]+)$/.exec(n.$ref);
    expect(m, `unresolvable $ref ${n.$ref}`).not.toBeNull();
    n = schemas[m![1]];
    expect(n, `missing component for ${node.$ref}`).toBeDefined();
  }
  return n;
}

/** Every `$ref` anywhere under `node`. */
function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

const ALL_COMMANDS = Object.entries(ENGINE_COMMANDS).flatMap(([engine, table]) => Object.entries(table).map(([command, contract]) => ({ engine, command, contract })));

describe('§3 the OpenAPI 3.1 document covers every command, request and response', () => {
  it('lists the twenty-four scheduler commands (SPEC §3.1, §12.3, §13.1, §15, §16.3, §17, §18.1) and the fifteen workflow commands', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(SCHEDULER_COMMANDS)).toEqual([
      'create_schedule',
      'get_schedule',
      'update_schedule',
      'delete_schedule',
      'list_schedules',
      'list_executions',
      'run_schedule',
      'set_all_enabled',
      'set_metrics_per_schedule',
      'list_dead_letters',
      'replay_dead_letter',
      'dismiss_dead_letter',
      'list_activity',
      'backfill_schedule',
      'list_backfills',
      'get_backfill',
      'cancel_backfill',
      'get_signing_secret',
      'rotate_signing_secret',
      'list_alert_rules',
      'create_alert_rule',
      'update_alert_rule',
      'delete_alert_rule',
      'list_alerts',
    ]);
    expect(Object.keys(WORKFLOW_COMMANDS)).toHaveLength(15);
    expect(Object.keys(commandOp['x-commands']).sort()).toEqual(ALL_COMMANDS.map((c) => c.command).sort());
  });

  it.each(ALL_COMMANDS)('$command: a strict request with engine, command and every parameter of its schema', ({ engine, command, contract }) => {
    const request = schemas[`${command}_request`];
    expect(request, `${command}_request`).toBeDefined();
    expect(request.additionalProperties).toBe(false);
    expect(request.properties.engine).toEqual({ type: 'string', const: engine });
    expect(request.properties.command).toEqual({ type: 'string', const: command });
    const params = contract.params.shape as Record<string, z.ZodType>;
    expect(Object.keys(request.properties)).toEqual(['engine', 'command', ...Object.keys(params)]);
    const required = Object.entries(params).filter(([, s]) => !s.safeParse(undefined).success).map(([k]) => k);
    expect(request.required).toEqual(['engine', 'command', ...required]);
    expect(commandOp['x-commands'][command]).toEqual({ engine, summary: contract.summary, request: { $ref: `#/components/schemas/${command}_request` }, response: { $ref: `#/components/schemas/${command}_response` } });
    expect(commandOp.requestBody.content['application/json'].schema.discriminator.mapping[command]).toBe(`#/components/schemas/${command}_request`);
  });

  it.each(ALL_COMMANDS)('$command: its response is the JSON Schema of its answer schema', ({ command, contract }) => {
    const response = resolve(schemas[`${command}_response`]);
    const expected = z.toJSONSchema(contract.answer, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Json;
    // Same shape: the same branches (a union) or the same properties, required keys and strictness.
    const shape = (s: Json) => (s.anyOf ? s.anyOf.map((b: Json) => shape(resolve(b))) : { keys: Object.keys(s.properties ?? {}), required: s.required ?? [], strict: s.additionalProperties === false });
    expect(shape(response)).toEqual(shape(expected));
    const oneOf = commandOp.responses['200'].content['application/json'].schema.oneOf as Json[];
    expect(oneOf).toContainEqual(schemas[`${command}_response`]);
  });

  it('the blob routes of §3.3 have their request (if any) and response', () => {
    for (const [name, route] of Object.entries(BLOB_ROUTES)) {
      const op = doc.paths[route.path]?.[route.method] as Json;
      expect(op?.operationId, name).toBe(name);
      const answer = resolve(op.responses['200'].content['application/json'].schema);
      expect(Object.keys(answer.properties)).toEqual(Object.keys((route.answer as z.ZodObject).shape));
      if (route.body) expect(resolve(op.requestBody.content['application/json'].schema).additionalProperties).toBe(false);
    }
  });

  it('every error status answers the Error body; every $ref in the document resolves', () => {
    for (const status of ['400', '401', '403', '404', '405', '409', '429', '500']) {
      expect(commandOp.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(Object.keys(schemas.Error.properties.error.properties)).toEqual(['code', 'message', 'path']);
    for (const ref of new Set(refsIn(doc))) resolve({ $ref: ref });
  });

  it('the Schedule component states the answer shape of SPEC §5.1: one strict variant per target type (SPEC §13)', () => {
    const variants = schemas.Schedule.oneOf as Json[];
    expect(variants.map((v) => v.properties.invocation_target_type)).toEqual(['workflow', 'http', 'aws'].map((t) => ({ type: 'string', const: t })));
    expect(variants[0].properties.invocation_target).toEqual({ $ref: '#/components/schemas/InvocationTarget' });
    for (const v of variants) {
      expect(v.additionalProperties).toBe(false);
      expect(v.required).toEqual(['repeat', 'timezone', 'enabled', 'id', 'name', 'state', 'next_fire_at', 'created_by', 'skipped_occurrences', 'version', 'created_at', 'updated_at', 'invocation_target_type', 'invocation_target']);
      expect(v.properties.next_fire_at).toEqual({ anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] });
    }
    expect(schemas.create_schedule_request.properties.dry_run).toEqual({ type: 'boolean' });
  });
});

/** Comparison rules of `diff`/`deploy` (docs/cli.md "How entries are compared") and the plan. */
import { describe, expect, it } from 'vitest';
import { compareSchedule, computePlan, updateBody } from '../diff';
import { parseManifest } from '../manifest';
import { deployed, deployedManifest, MANIFEST, PINNED_REVISION, resolvePinned, SESSION_ID } from './fixtures';
import type { InvocationTarget } from '../../lib/schedules/contract';

const entries = () => parseManifest(MANIFEST, 'schedules.yaml').entries;
const noResolve = () => false;

describe('compareSchedule: equal under the comparison rules', () => {
  it('the manifest equals what the server stored for it', () => {
    const [a, b] = entries();
    const [da, db] = deployedManifest();
    expect(compareSchedule(a.input, da, resolvePinned)).toEqual([]);
    expect(compareSchedule(b.input, db, resolvePinned)).toEqual([]);
  });

  it('start_date `2026-01-01T00:00:00+01:00` equals the stored `2025-12-31T23:00:00.000Z` (instants, not text)', () => {
    const [a] = entries();
    expect(compareSchedule({ ...a.input, start_date: '2025-12-31T23:00:00Z' }, deployedManifest()[0], noResolve)).toEqual([]);
  });

  it('absent enabled equals true; absent input_data equals []; input_data object keys in any order', () => {
    const s = deployed({ alias: 'x-sched', cron_expression: '0 1 * * ? *' });
    const { input_data: _ignored, ...it } = s.invocation_target;
    expect(compareSchedule({ repeat: 'recurring_cron', cron_expression: '0 1 * * ? *', timezone: 'UTC', invocation_target: it }, s, noResolve)).toEqual([]);
    const [, b] = entries();
    expect(compareSchedule(b.input, deployedManifest()[1], resolvePinned)).toEqual([]); // {hours, scope} vs {scope, hours}
  });

  it('a pinned session alias that resolves to the stored id is equal; one that does not is a change', () => {
    const [, b] = entries();
    expect(compareSchedule(b.input, deployedManifest()[1], noResolve)).toEqual([
      { path: ['invocation_target', 'target', 'session'], from: SESSION_ID, to: 'nightly-batch' },
    ]);
  });

  it('a following target compares the session alias as written', () => {
    const [a] = entries();
    const d = deployedManifest()[0];
    d.invocation_target = { ...d.invocation_target, target: { ...d.invocation_target.target, session: 'other-batch' } };
    expect(compareSchedule(a.input, d, () => true).map((c) => c.path.join('.'))).toEqual(['invocation_target.target.session']);
  });
});

describe('compareSchedule: reports exactly the differing fields', () => {
  it('one edited field → one change, deployed value first', () => {
    const [a] = entries();
    expect(compareSchedule({ ...a.input, cron_expression: '0 3 * * ? *' }, deployedManifest()[0], noResolve)).toEqual([
      { path: ['cron_expression'], from: '0 2 * * ? *', to: '0 3 * * ? *' },
    ]);
  });

  it('read-only fields (state, next_fire_at, ids, timestamps) never count', () => {
    const [a] = entries();
    const d = { ...deployedManifest()[0], state: 'completed' as const, next_fire_at: null, updated_at: '2030-01-01T00:00:00.000Z' };
    expect(compareSchedule(a.input, d, noResolve)).toEqual([]);
  });

  it('a description removed from the manifest is a change to (none); a workflow qualified by blob lists each new key', () => {
    const [a] = entries();
    const { description: _d, ...rest } = a.input;
    const changes = compareSchedule(
      { ...rest, invocation_target: { ...rest.invocation_target, workflow: { org: 'acme-corp', blob: 'procedures', definition: 'daily-report' } } },
      deployedManifest()[0],
      noResolve,
    );
    expect(changes).toEqual([
      { path: ['description'], from: 'Nightly report', to: undefined },
      { path: ['invocation_target', 'workflow', 'org'], from: undefined, to: 'acme-corp' },
      { path: ['invocation_target', 'workflow', 'blob'], from: undefined, to: 'procedures' },
    ]);
  });
});

describe('updateBody: only the differing fields', () => {
  it('sends the new values, null to clear an optional field, true for an absent enabled, the whole invocation_target with its type', () => {
    const [a] = entries();
    const d = { ...deployedManifest()[0], enabled: false, end_date: '2027-01-01T00:00:00.000Z' };
    const desired = { ...a.input, description: undefined, invocation_target: { ...a.input.invocation_target, input_data: [{ alias: 'k', value: 1 }] } };
    const changes = compareSchedule(desired, d, noResolve);
    expect(updateBody(desired, changes)).toEqual({
      description: null,
      end_date: null,
      enabled: true,
      invocation_target: desired.invocation_target,
      invocation_target_type: 'workflow',
    });
  });

  it('switching repeat sends repeat and invocation_time, never a null cron_expression', () => {
    const [a] = entries();
    const { cron_expression: _c, ...rest } = a.input;
    const desired = { ...rest, repeat: 'one_time' as const, invocation_time: '2027-01-01T09:00:00' };
    const body = updateBody(desired, compareSchedule(desired, deployedManifest()[0], noResolve));
    expect(body).toEqual({ repeat: 'one_time', invocation_time: '2027-01-01T09:00:00' });
  });
});

describe('webhook and AWS targets in a manifest (SPEC §13)', () => {
  const hook = { url: 'https://hooks.example.com/in', method: 'PUT' as const };
  it('a target of another type is the type and the whole target, and the update sends both', () => {
    const [a] = entries();
    const desired = { ...a.input, invocation_target_type: 'http', invocation_target: hook };
    const d = deployedManifest()[0];
    const changes = compareSchedule(desired, d, noResolve);
    expect(changes).toEqual([
      { path: ['invocation_target_type'], from: undefined, to: 'http' },
      { path: ['invocation_target'], from: d.invocation_target, to: hook },
    ]);
    expect(updateBody(desired, changes)).toEqual({ invocation_target: hook, invocation_target_type: 'http' });
  });

  it('an equal webhook target is no change; a changed one names the leaf and is sent whole, with its type', () => {
    const [a] = entries();
    const d = { ...deployedManifest()[0], invocation_target_type: 'http', invocation_target: hook } as unknown as Parameters<typeof compareSchedule>[1];
    expect(compareSchedule({ ...a.input, invocation_target_type: 'http', invocation_target: { method: 'PUT', url: hook.url } }, d, noResolve)).toEqual([]);
    const desired = { ...a.input, invocation_target_type: 'http', invocation_target: { ...hook, timeout_seconds: 5 } };
    const changes = compareSchedule(desired, d, noResolve);
    expect(changes).toEqual([{ path: ['invocation_target', 'timeout_seconds'], from: undefined, to: 5 }]);
    expect(updateBody(desired, changes)).toEqual({ invocation_target: { ...hook, timeout_seconds: 5 }, invocation_target_type: 'http' });
    // Back to a workflow target (the manifest leaves the type out): the update names the type.
    expect(updateBody(a.input, compareSchedule(a.input, d, noResolve))).toEqual({ invocation_target: a.input.invocation_target, invocation_target_type: 'workflow' });
  });

  it('header values answered masked (SPEC §13.5) equal any manifest value; a header added or removed is a change', () => {
    const [a] = entries();
    const d = { ...deployedManifest()[0], invocation_target_type: 'http', invocation_target: { ...hook, headers: { Authorization: '••••' } } } as unknown as Parameters<typeof compareSchedule>[1];
    const withHeaders = (headers: Record<string, string>) => ({ ...a.input, invocation_target_type: 'http', invocation_target: { ...hook, headers } });
    expect(compareSchedule(withHeaders({ Authorization: 'Bearer s3cret' }), d, noResolve)).toEqual([]);
    expect(compareSchedule(withHeaders({ Authorization: 'Bearer s3cret', 'X-Team': 'ops' }), d, noResolve)).toEqual([
      { path: ['invocation_target', 'headers', 'X-Team'], from: undefined, to: 'ops' },
    ]);
    expect(compareSchedule(withHeaders({}), d, noResolve)).toEqual([{ path: ['invocation_target', 'headers', 'Authorization'], from: '••••', to: undefined }]);
  });

  it('a webhook body is free JSON: compared whole, an empty list inside it is a value', () => {
    const [a] = entries();
    const d = { ...deployedManifest()[0], invocation_target_type: 'http', invocation_target: { ...hook, body: { items: [] } } } as unknown as Parameters<typeof compareSchedule>[1];
    expect(compareSchedule({ ...a.input, invocation_target_type: 'http', invocation_target: { ...hook, body: {} } }, d, noResolve)).toEqual([
      { path: ['invocation_target', 'body'], from: { items: [] }, to: {} },
    ]);
  });
});

describe('computePlan', () => {
  it('creates the missing, updates the differing, keeps the equal, reports unlisted and unaliased schedules as drift', () => {
    const [a, b] = entries();
    const [, db] = deployedManifest();
    const manual = deployed({ id: '99999999-0000-4000-8000-000000000003', alias: 'made-in-ui', cron_expression: '0 5 * * ? *' });
    const unaliased = deployed({ id: '99999999-0000-4000-8000-000000000004', cron_expression: '0 6 * * ? *' });
    const plan = computePlan(
      [a, { ...b, input: { ...b.input, enabled: false } }],
      [manual, db, unaliased],
      resolvePinned,
    );
    expect(plan.entries.map((e) => e.kind)).toEqual(['create', 'update']);
    expect(plan.entries[1]).toMatchObject({ kind: 'update', body: { enabled: false }, schedule: { id: db.id } });
    expect(plan.drift.map((s) => s.id)).toEqual([manual.id, unaliased.id]);
  });

  it('a second run against the result of the first is all unchanged (idempotent)', () => {
    const plan = computePlan(entries(), deployedManifest(), resolvePinned);
    expect(plan.entries.map((e) => e.kind)).toEqual(['unchanged', 'unchanged']);
    expect(plan.drift).toEqual([]);
  });

  it('pinned revision ids come from the manifest (fixture sanity)', () => {
    expect((entries()[1].input.invocation_target as InvocationTarget).target.revision).toBe(PINNED_REVISION);
  });
});

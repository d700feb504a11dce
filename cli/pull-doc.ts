/**
 * `pull` on the parsed YAML document, in place, so comments and the user's order survive where the
 * YAML library allows: an equal entry is not touched; a differing one gets only its differing leaves
 * set (new keys inserted at their canonical position); new entries are appended in alias order with
 * keys in canonical order; entries no longer deployed are removed. Pure apart from mutating `doc`.
 */
import { Document, isMap, isScalar, Scalar, YAMLMap } from 'yaml';
import { catalogRefOf, type Schedule, type WorkflowSchedule } from '../lib/schedules/contract';
import { COMPARED_FIELDS, compareSchedule, TARGET_KEYS, TARGET_REF_KEYS, WORKFLOW_REF_KEYS, type DesiredFields, type PinnedSessionResolver } from './diff';
import type { ManifestScheduler } from './manifest';
import { findPair } from './yaml-locate';

/** What `pull` did to the document. */
export interface PullResult {
  added: string[];
  updated: string[];
  unchanged: string[];
  /** Manifest entries with no deployed schedule: removed from the file. */
  removed: string[];
  /** Deployed schedules without an alias: they cannot be keyed, so they are not written. */
  skipped: Schedule[];
  /** Deployed schedules with an `http` or `aws` target (SPEC §13): `pull` writes workflow targets only,
   * so they are not written (a manifest entry may declare one; `deploy` saves it). */
  external: Schedule[];
}

/** Canonical key order of each map level (also the order of a new entry). */
const ORDER: Record<string, readonly string[]> = {
  entry: [...COMPARED_FIELDS.slice(0, -1), 'invocation_target_type', 'invocation_target'],
  invocation_target: TARGET_KEYS,
  target: TARGET_REF_KEYS,
  workflow: WORKFLOW_REF_KEYS,
};

/**
 * A deployed schedule as a manifest entry: writable fields only, in canonical order, defaults left out
 * (`enabled` only when false, `input_data` only when non-empty). Instants as the API returns them (ISO UTC).
 */
export function toManifestEntry(s: WorkflowSchedule): Record<string, unknown> {
  const it = s.invocation_target;
  const pick = (obj: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.filter((k) => obj[k] !== undefined).map((k) => [k, obj[k]]));
  return {
    ...(s.description !== undefined ? { description: s.description } : {}),
    repeat: s.repeat,
    ...(s.invocation_time !== undefined ? { invocation_time: s.invocation_time } : {}),
    ...(s.cron_expression !== undefined ? { cron_expression: s.cron_expression } : {}),
    timezone: s.timezone,
    ...(s.start_date !== undefined ? { start_date: s.start_date } : {}),
    ...(s.end_date !== undefined ? { end_date: s.end_date } : {}),
    ...(s.enabled === false ? { enabled: false } : {}),
    invocation_target: {
      target: pick(it.target, TARGET_REF_KEYS),
      workflow: pick(it.workflow, WORKFLOW_REF_KEYS),
      ...(it.input_data?.length ? { input_data: it.input_data } : {}),
    },
  };
}

/** A YAML node for `value`; cron expressions are double-quoted (a leading `*` would read as an alias). */
function nodeFor(doc: Document, key: string, value: unknown): unknown {
  const node = doc.createNode(value);
  if (key === 'cron_expression' && node instanceof Scalar) node.type = Scalar.QUOTE_DOUBLE;
  if (isMap(node)) {
    for (const pair of node.items) {
      if (isScalar(pair.key) && pair.key.value === 'cron_expression' && pair.value instanceof Scalar) pair.value.type = Scalar.QUOTE_DOUBLE;
    }
  }
  return node;
}

/** Insert or replace `key` in `map`, keeping the canonical order for a new key. Keeps a scalar's comments. */
function setKey(doc: Document, map: YAMLMap, key: string, value: unknown, order: readonly string[]): void {
  const pair = findPair(map, key);
  if (pair) {
    if (pair.value instanceof Scalar && (value === null || typeof value !== 'object')) {
      pair.value.value = value;
      if (key === 'cron_expression') pair.value.type = Scalar.QUOTE_DOUBLE;
    } else {
      pair.value = nodeFor(doc, key, value);
    }
    return;
  }
  const rank = (k: unknown) => {
    const i = order.indexOf(String(isScalar(k) ? k.value : k));
    return i < 0 ? order.length : i;
  };
  const newPair = doc.createPair(key, nodeFor(doc, key, value));
  const at = map.items.findIndex((p) => rank(p.key) > rank(key));
  if (at < 0) map.items.push(newPair);
  else map.items.splice(at, 0, newPair);
}

/** The map at `key` in `map`, created (at its canonical place) when missing or not a map. */
function childMap(doc: Document, map: YAMLMap, key: string, order: readonly string[]): YAMLMap {
  const existing = findPair(map, key)?.value;
  if (isMap(existing)) return existing;
  setKey(doc, map, key, {}, order);
  return findPair(map, key)?.value as YAMLMap;
}

/** Write one differing leaf (`path` inside the entry) with the deployed value; an absent or default value deletes the key. */
function writeLeaf(doc: Document, entry: YAMLMap, path: readonly (string | number)[], value: unknown): void {
  let map = entry;
  let level = 'entry';
  for (const seg of path.slice(0, -1)) {
    map = childMap(doc, map, String(seg), ORDER[level] ?? []);
    level = String(seg);
  }
  const key = String(path[path.length - 1]);
  const isDefault = value === undefined || (key === 'enabled' && value === true) || (key === 'input_data' && Array.isArray(value) && value.length === 0);
  if (isDefault) map.delete(key);
  else setKey(doc, map, key, value, ORDER[level] ?? []);
}

/**
 * Make `doc` describe `deployed` (see the module comment). `scheduler`, when given and the document
 * has none, is written as `scheduler: {org, blob}`. `resolvePinned` keeps a manifest's pinned session
 * alias when it names the stored session id.
 */
export function applyPull(doc: Document, deployed: readonly Schedule[], resolvePinned: PinnedSessionResolver, scheduler?: ManifestScheduler): PullResult {
  const result: PullResult = { added: [], updated: [], unchanged: [], removed: [], skipped: [], external: [] };
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  const root = doc.contents as unknown as YAMLMap;
  if (scheduler && !findPair(root, 'scheduler')) setKey(doc, root, 'scheduler', scheduler, ['scheduler', 'schedules']);
  let schedules = findPair(root, 'schedules')?.value;
  if (!isMap(schedules)) {
    setKey(doc, root, 'schedules', {}, ['scheduler', 'schedules']);
    schedules = findPair(root, 'schedules')?.value as YAMLMap;
  }
  const map = schedules as YAMLMap;

  // A manifest entry's target is a catalog reference (SPEC §11): pull writes the targets that run in the catalog.
  const workflows = deployed.filter((s): s is WorkflowSchedule => catalogRefOf(s) !== null);
  const byAlias = new Map(workflows.filter((s) => s.alias !== undefined).map((s) => [s.alias as string, s]));
  result.skipped = workflows.filter((s) => s.alias === undefined);
  result.external = deployed.filter((s) => catalogRefOf(s) === null);
  for (const pair of [...map.items]) {
    const alias = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!byAlias.has(alias)) {
      map.delete(pair.key);
      result.removed.push(alias);
    }
  }
  for (const pair of map.items) {
    const alias = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const s = byAlias.get(alias) as WorkflowSchedule;
    if (!isMap(pair.value)) {
      pair.value = nodeFor(doc, alias, toManifestEntry(s));
      result.updated.push(alias);
      continue;
    }
    const raw = pair.value.toJS(doc) as DesiredFields;
    const changes = compareSchedule(raw, s, resolvePinned);
    if (!changes.length) {
      result.unchanged.push(alias);
      continue;
    }
    for (const c of changes) writeLeaf(doc, pair.value, c.path, c.from);
    result.updated.push(alias);
  }
  const present = new Set(map.items.map((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key))));
  for (const alias of [...byAlias.keys()].filter((a) => !present.has(a)).sort()) {
    map.items.push(doc.createPair(alias, nodeFor(doc, alias, toManifestEntry(byAlias.get(alias) as WorkflowSchedule))));
    result.added.push(alias);
  }
  return result;
}

/**
 * Render `doc` in the style of `original` where the YAML library lets us choose: flow maps keep or drop
 * their inner spaces (`{a: 1}` vs `{ a: 1 }`) as the original mostly did; long strings are never folded.
 */
export function renderLike(doc: Document, original: string): string {
  const padded = (original.match(/\{ /g) ?? []).length;
  const tight = (original.match(/\{[^\s}]/g) ?? []).length;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: padded >= tight });
}

/**
 * `pull` on the parsed YAML document, in place, so comments and the user's order survive where the
 * YAML library allows: an equal entry is not touched; a differing one gets only its differing leaves
 * set (new keys inserted at their canonical position); new entries are appended in alias order with
 * keys in canonical order; entries no longer deployed are removed. Pure apart from mutating `doc`.
 */
import { Document, isMap, isScalar, Scalar, YAMLMap } from 'yaml';
import type { InvocationTargetType, Schedule } from '../lib/schedules/contract';
import { compareSchedule, type DesiredFields, type PinnedSessionResolver } from './diff';
import { keyOrderAt, manifestValueAt, writableFields } from './fields';
import { validateEntry, type ManifestScheduler } from './manifest';
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
  /**
   * Deployed schedules the API's own schema refuses as a manifest entry (an `aws` target of a service
   * only the EventBridge API stores, SPEC §14; a name that is no alias): not written, and an entry of
   * theirs already in the file is left as it is. `problem` is the first refusal, as `code: message`.
   */
  unrepresentable: { schedule: Schedule; problem: string }[];
}

/**
 * A deployed schedule as a manifest entry: every writable field (cli/fields.ts) but the alias, in
 * canonical order, defaults and empty lists left out (`enabled` only when false, `input_data` only when
 * non-empty, `invocation_target_type` only when not `workflow`). Instants as the API returns them (ISO UTC).
 */
export function toManifestEntry(s: Schedule): Record<string, unknown> {
  return manifestValueAt(s.invocation_target_type, [], writableFields(s)) as Record<string, unknown>;
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

/** Write one differing leaf (`path` inside the entry) with the deployed value; an absent value deletes the key. */
function writeLeaf(doc: Document, entry: YAMLMap, type: InvocationTargetType, path: readonly (string | number)[], value: unknown): void {
  let map = entry;
  for (const [i, seg] of path.slice(0, -1).entries()) map = childMap(doc, map, String(seg), keyOrderAt(type, path.slice(0, i)));
  const key = String(path[path.length - 1]);
  if (value === undefined) map.delete(key);
  else setKey(doc, map, key, manifestValueAt(type, path, value), keyOrderAt(type, path.slice(0, -1)));
}

/**
 * Make `doc` describe `deployed` (see the module comment). `scheduler`, when given and the document
 * has none, is written as `scheduler: {org, blob}`. `resolvePinned` keeps a manifest's pinned session
 * alias when it names the stored session id.
 */
export function applyPull(doc: Document, deployed: readonly Schedule[], resolvePinned: PinnedSessionResolver, scheduler?: ManifestScheduler): PullResult {
  const result: PullResult = { added: [], updated: [], unchanged: [], removed: [], skipped: [], unrepresentable: [] };
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  const root = doc.contents as unknown as YAMLMap;
  if (scheduler && !findPair(root, 'scheduler')) setKey(doc, root, 'scheduler', scheduler, ['scheduler', 'schedules']);
  let schedules = findPair(root, 'schedules')?.value;
  if (!isMap(schedules)) {
    setKey(doc, root, 'schedules', {}, ['scheduler', 'schedules']);
    schedules = findPair(root, 'schedules')?.value as YAMLMap;
  }
  const map = schedules as YAMLMap;

  const byAlias = new Map<string, Schedule>();
  const leftAlone = new Set<string>();
  for (const s of deployed) {
    if (s.alias === undefined) {
      result.skipped.push(s);
      continue;
    }
    const checked = validateEntry(s.alias, toManifestEntry(s), () => ({ line: 0, col: 0 }));
    if ('problems' in checked) {
      const p = checked.problems[0];
      result.unrepresentable.push({ schedule: s, problem: `${p.code}: ${p.message}` });
      leftAlone.add(s.alias);
    } else {
      byAlias.set(s.alias, s);
    }
  }
  const keyOf = (pair: { key: unknown }) => (isScalar(pair.key) ? String(pair.key.value) : String(pair.key));
  for (const pair of [...map.items]) {
    const alias = keyOf(pair);
    if (!byAlias.has(alias) && !leftAlone.has(alias)) {
      map.delete(pair.key);
      result.removed.push(alias);
    }
  }
  for (const pair of map.items) {
    const alias = keyOf(pair);
    const s = byAlias.get(alias);
    if (!s) continue;
    if (!isMap(pair.value)) {
      pair.value = nodeFor(doc, alias, toManifestEntry(s));
      result.updated.push(alias);
      continue;
    }
    let changed = false;
    // A second pass: writing `enabled: false` brings `paused` into the comparison (cli/fields.ts).
    for (let pass = 0; pass < 2; pass++) {
      const changes = compareSchedule(pair.value.toJS(doc) as DesiredFields, s, resolvePinned);
      for (const c of changes) writeLeaf(doc, pair.value, s.invocation_target_type, c.path, c.from);
      changed ||= changes.length > 0;
    }
    result[changed ? 'updated' : 'unchanged'].push(alias);
  }
  const present = new Set(map.items.map(keyOf));
  for (const alias of [...byAlias.keys()].filter((a) => !present.has(a)).sort()) {
    map.items.push(doc.createPair(alias, nodeFor(doc, alias, toManifestEntry(byAlias.get(alias) as Schedule))));
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

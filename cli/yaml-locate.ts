/**
 * Source positions in a parsed YAML document: map a value path (`['schedules', 'nightly-report',
 * 'cron_expression']`) back to the line of the offending key, so manifest errors name their line.
 */
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair } from 'yaml';

/** A 1-based line and column in the manifest. */
export interface SourcePos {
  line: number;
  col: number;
}

/** The pair of `map` whose key is `key` (scalar keys compared as strings), or undefined. */
export function findPair(map: unknown, key: string | number): Pair<unknown, unknown> | undefined {
  if (!isMap(map)) return undefined;
  return map.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(key)) as Pair<unknown, unknown> | undefined;
}

function posOf(node: unknown, lc: LineCounter): SourcePos | undefined {
  const range = (node as Node | undefined)?.range;
  if (!range) return undefined;
  return lc.linePos(range[0]);
}

/**
 * The position of `path` in `doc`: the key of the last map step that exists (so an unknown key or a
 * bad value points at its own line, and a missing key at its parent's), or a sequence item. Falls back
 * to the deepest ancestor found, and to line 1 for an empty document.
 */
export function locate(doc: Document, lc: LineCounter, path: readonly (string | number)[]): SourcePos {
  let node: unknown = doc.contents;
  let best: SourcePos = posOf(node, lc) ?? { line: 1, col: 1 };
  for (const seg of path) {
    if (isMap(node)) {
      const pair = findPair(node, seg);
      if (!pair) return best;
      best = posOf(pair.key, lc) ?? posOf(pair.value, lc) ?? best;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(String(seg))) {
      const item = node.items[Number(seg)];
      if (item === undefined) return best;
      best = posOf(item, lc) ?? best;
      node = item;
    } else {
      return best;
    }
  }
  return best;
}

/** lib/db/pg-prepared.ts's names (decision 429): one per text, bounded per process. */
import { describe, expect, it } from 'vitest';
import { PREPARED_TEXTS_LIMIT, preparedName } from '../pg-prepared';

describe('preparedName', () => {
  it('names a text by its hash: the same text the same name, another text another', () => {
    const a = preparedName('SELECT 1 WHERE $1::int = 1');
    expect(a).toMatch(/^s_[0-9a-f]{24}$/);
    expect(preparedName('SELECT 1 WHERE $1::int = 1')).toBe(a);
    expect(preparedName('SELECT 2 WHERE $1::int = 1')).not.toBe(a);
  });

  it(`names at most ${PREPARED_TEXTS_LIMIT} texts a process: later texts run unnamed, named ones keep their names`, () => {
    const first = preparedName('SELECT 0 AS first');
    const names = new Set<string>();
    for (let i = 0; i < PREPARED_TEXTS_LIMIT + 10; i++) {
      const name = preparedName(`SELECT ${i} AS n FROM (VALUES (1)) v`);
      if (name !== undefined) names.add(name);
    }
    // Three texts were named before the loop (two in the first test, one above): the loop gets the rest.
    expect(names.size).toBe(PREPARED_TEXTS_LIMIT - 3);
    expect(preparedName('SELECT a text never seen')).toBeUndefined();
    expect(preparedName('SELECT 0 AS first')).toBe(first);
  });
});

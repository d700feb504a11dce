/**
 * Every route of the product API answers every method (SPEC §3): a method a route does not serve is
 * `405 method_not_allowed` in the error shape with an `Allow` header, never Next.js's empty 405.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const V1 = path.resolve(import.meta.dirname, '../v1');
/** Served as a static file by the build; Next.js answers its other methods itself. */
const STATIC = new Set(['openapi.json/route.ts']);

function routes(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return routes(p);
    return name === 'route.ts' ? [path.relative(V1, p)] : [];
  });
}

describe('product API methods', () => {
  const files = routes(V1).filter((f) => !STATIC.has(f));

  it.each(files)('%s exports every method', async (file) => {
    const mod = (await import(path.join(V1, file))) as Record<string, unknown>;
    expect(METHODS.filter((m) => typeof mod[m] !== 'function')).toEqual([]);
  });

  it('DELETE on a blob is 405 method_not_allowed with Allow: GET', async () => {
    const mod = (await import(path.join(V1, 'orgs/[org]/blobs/[blob]/route.ts'))) as Record<string, () => Promise<Response>>;
    const res = await mod.DELETE();
    expect([res.status, res.headers.get('allow'), await res.json()]).toEqual([405, 'GET', { error: { code: 'method_not_allowed', message: 'use GET' } }]);
  });
});

/**
 * STYLE §7: outside lib/targets no code branches on a target type's name (eslint.config.mjs
 * `project/no-target-type-branch`; the names are the registry's, read from lib/targets/<type>/contract.ts).
 * These tests plant branches with ESLint's Node API and the project's own configuration, and expect
 * the rule to refuse them everywhere but in lib/targets, and to leave other comparisons alone.
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RULE = 'project/no-target-type-branch';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The messages of the rule for `code` linted as the file `file` (repo-relative). */
async function branches(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe("a branch on a target type's name is refused outside lib/targets", () => {
  it('a real file planted in lib/schedules that branches on invocation_target_type fails `npm run lint`', async () => {
    const file = path.join(ROOT, 'lib', 'schedules', `lint-probe-${randomUUID().slice(0, 8)}.ts`);
    await writeFile(file, "export const isWebhook = (s: { invocation_target_type: string }) => s.invocation_target_type === 'http';\n");
    try {
      const [result] = await eslint.lintFiles([file]);
      expect(result.messages.map((m) => [m.ruleId, m.line, m.severity])).toEqual([[RULE, 1, 2]]);
      expect(result.messages[0].message).toBe("Do not branch on a target type's name ('http') outside lib/targets: ask the registry (lib/targets/contract.ts, components/targets) instead (STYLE §7).");
    } finally {
      await rm(file, { force: true });
    }
  });

  it.each([
    ['lib/engine/probe.ts', "export const f = (row: { invocationTargetType: string }) => row.invocationTargetType !== 'workflow';"],
    ['lib/api/eventbridge/probe.ts', "export const f = (s: { invocation_target_type?: string }) => (s.invocation_target_type ?? 'workflow') === 'aws';"],
    ['worker/probe.ts', "export function f(targetType: string) { switch (targetType) { case 'http': return 1; default: return 0; } }"],
    ['components/probe.tsx', "export const f = (shown: { kind: string }) => shown.kind === 'workflow';"],
    ['app/probe.tsx', "export const f = (t: { targetType: string }) => 'aws' == t.targetType;"],
    ['cli/probe.ts', "export const f = (e: { input: { invocation_target_type?: string } }) => e.input.invocation_target_type === 'http';"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await branches(file, `${code}\n`)).toHaveLength(1);
  });

  it('lib/targets (the drivers and their registry) may name types; other comparisons of the same words are left alone', async () => {
    expect(await branches('lib/targets/probe.ts', "export const f = (s: { invocation_target_type: string }) => s.invocation_target_type === 'http';\n")).toEqual([]);
    // A blob's type, an outcome's kind, a cross-type comparison: not a branch on a target type's name.
    expect(await branches('lib/workflows/probe.ts', "export const f = (blob: { type: string }) => blob.type !== 'workflow';\n")).toEqual([]);
    expect(await branches('worker/probe.ts', "export const f = (out: { kind: string }) => out.kind === 'fired';\n")).toEqual([]);
    expect(await branches('lib/schedules/probe.ts', 'export const f = (a: { invocation_target_type: string }, b: { invocation_target_type: string }) => a.invocation_target_type !== b.invocation_target_type;\n')).toEqual([]);
  });
});

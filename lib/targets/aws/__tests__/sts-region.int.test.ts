/**
 * SPEC §13.5: an org's role is assumed through STS whatever region the worker's environment names,
 * also none (AWS_REGION unset, no profile): the STS client falls back to the SDK's default region,
 * instead of failing every delivery of every role-mode org with "Region is missing". A child process
 * (tsx) with the region removed from its environment assumes a role on moto's real server.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { childEnv } from '../../../config';
import { requireMoto } from '../../../testing/moto';

const root = path.resolve(import.meta.dirname, '../../../..');
const SCRIPT = `
import { assumeRole } from './lib/targets/aws/credentials';
const c = await assumeRole({ kind: 'role', roleArn: 'arn:aws:iam::123456789012:role/no-region', externalId: 'ext-no-region', sessionName: 'no-region' });
console.log(JSON.stringify({ key: c.accessKeyId.slice(0, 4), session: Boolean(c.sessionToken) }));
`;

it('§13.5 AssumeRole with no AWS_REGION in the environment: the default region, not "Region is missing"', async () => {
  await requireMoto();
  const env = childEnv({ AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' });
  delete env.AWS_REGION;
  delete env.AWS_DEFAULT_REGION;
  delete env.AWS_PROFILE;
  const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr })),
  );
  expect(out.stderr).not.toContain('Region is missing');
  expect(out.code, out.stderr).toBe(0);
  expect(JSON.parse(out.stdout.trim().split('\n').pop()!)).toEqual({ key: 'ASIA', session: true });
}, 90_000);

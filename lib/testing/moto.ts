/**
 * moto's server, the real AWS emulator the `aws` target and dead-letter tests run against (never a
 * mock of AWS). `npm test` (scripts/test-all.sh) starts `moto_server` on loopback and exports the
 * standard AWS SDK environment: `AWS_ENDPOINT_URL`, `AWS_REGION` and dummy credentials.
 *
 * `requireMoto()` fails the calling tests with a message saying what is missing, instead of
 * skipping them, and makes sure no SDK call can leave loopback: the endpoint must be a loopback
 * URL, and the credential chain gets dummy keys and no instance-metadata lookup.
 */
import { loadConfig } from '../config';

const HOW = "npm test (scripts/test-all.sh) starts `moto_server -H 127.0.0.1 -p <port>` (moto for python3: pip install 'moto[server]') and exports AWS_ENDPOINT_URL, AWS_REGION and dummy credentials";

/** The emulator's URL, checked to be loopback. Throws when it is not configured. */
export function motoEndpoint(): string {
  const url = loadConfig().testAwsEndpoint;
  if (!url) throw new Error(`moto's server is not configured: AWS_ENDPOINT_URL is not set. ${HOW}.`);
  if (!/^http:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost)(:\d+)?\/?$/.test(url)) {
    throw new Error(`AWS_ENDPOINT_URL=${url} is not a loopback emulator; these tests send AWS traffic to loopback only`);
  }
  return url.replace(/\/$/, '');
}

/** Check that moto answers; set dummy credentials and disable instance metadata for the SDK. */
export async function requireMoto(): Promise<string> {
  const url = motoEndpoint();
  // The SDK reads its own environment (SPEC §13.2); tests make sure it has nothing to look up elsewhere.
  process.env.AWS_ACCESS_KEY_ID ||= 'testing';
  process.env.AWS_SECRET_ACCESS_KEY ||= 'testing';
  process.env.AWS_REGION ||= 'us-east-1';
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  try {
    const res = await fetch(`${url}/moto-api/`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  } catch (e) {
    throw new Error(`moto's server does not answer at ${url} (${(e as Error).message}). ${HOW}.`);
  }
  return url;
}

/**
 * A moto server of the calling test file's own, on a free loopback port, that can enforce IAM
 * (SPEC §13.5's tests: a role's trust policy with an `sts:ExternalId` condition, credentials that
 * may assume roles but not send to SQS). Enforcement is server-wide in moto, so it never runs on the
 * shared server. While it runs, the AWS SDK's environment (`AWS_ENDPOINT_URL`, the keys) points at
 * it; `stop()` puts the shared server's back. Set up with enforcement off, then `enforceIam()`.
 */
export interface OwnMoto {
  url: string;
  /** From now on every request must be signed by an IAM identity whose policies allow it. */
  enforceIam(): Promise<void>;
  /** Back to no IAM checks (to read what a test left behind). */
  relaxIam(): Promise<void>;
  /** The AWS SDK's keys from now on: the worker's own credentials. */
  useWorkerKeys(keys: { accessKeyId: string; secretAccessKey: string }): void;
  stop(): Promise<void>;
}

export async function startOwnMoto(): Promise<OwnMoto> {
  const { spawn } = await import('node:child_process');
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      probe.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/moto-api/`, { signal: AbortSignal.timeout(1000) })).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 60 || child.exitCode !== null) throw new Error(`moto's server did not start on ${url}. ${HOW}.`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const saved = { url: process.env.AWS_ENDPOINT_URL, key: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ENDPOINT_URL = url;
  process.env.AWS_ACCESS_KEY_ID = 'testing';
  process.env.AWS_SECRET_ACCESS_KEY = 'testing';
  process.env.AWS_REGION ||= 'us-east-1';
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  const auth = async (count: string) => {
    const res = await fetch(`${url}/moto-api/reset-auth`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: count });
    if (!res.ok) throw new Error(`moto's reset-auth answered ${res.status}`);
  };
  return {
    url,
    enforceIam: () => auth('0'),
    relaxIam: () => auth('Infinity'),
    useWorkerKeys(keys) {
      process.env.AWS_ACCESS_KEY_ID = keys.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = keys.secretAccessKey;
    },
    async stop() {
      child.kill();
      const restore = (name: 'AWS_ENDPOINT_URL' | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY', v: string | undefined) => {
        if (v === undefined) delete process.env[name];
        else process.env[name] = v;
      };
      restore('AWS_ENDPOINT_URL', saved.url);
      restore('AWS_ACCESS_KEY_ID', saved.key);
      restore('AWS_SECRET_ACCESS_KEY', saved.secret);
    },
  };
}

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

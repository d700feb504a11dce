/**
 * The region of the worker's AWS SDK configuration (SPEC §13.2, §13.3): a leaf of the aws target's
 * folder, so the clients and the STS client of assumed roles (credentials.ts) resolve it alike.
 */
import { SQSClient } from '@aws-sdk/client-sqs';

/** Used when the SDK environment names no region (AWS's own default region). */
export const FALLBACK_REGION = 'us-east-1';
let region: Promise<string> | undefined;

/**
 * The region of the worker's AWS SDK configuration (`AWS_REGION`, or the profile's), as the SDK
 * resolves it; `us-east-1` when none is configured. Resolved once per process. For the default
 * event's `region` and the schedule ARNs (SPEC §13.3).
 */
export function sdkRegion(): Promise<string> {
  region ??= (async () => {
    const probe = new SQSClient({});
    try {
      return await probe.config.region();
    } catch {
      return FALLBACK_REGION;
    } finally {
      probe.destroy();
    }
  })();
  return region;
}

/**
 * What an AWS SDK v3 client throws for a refused request, for tests of the EventBridge API (SPEC §14).
 */

/** An SDK refusal: `name` is AWS's error code (from `x-amzn-ErrorType`), `status` the HTTP status. */
export interface SdkRefusal {
  name: string;
  status: number | undefined;
  message: string;
}

/**
 * The error `p` rejects with, as `{name, status, message}`.
 * @throws when `p` resolves (the test expected a refusal).
 */
export async function sdkRefusal(p: Promise<unknown>): Promise<SdkRefusal> {
  try {
    await p;
  } catch (e) {
    const err = e as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: err.name, status: err.$metadata?.httpStatusCode, message: err.message };
  }
  throw new Error('expected a refusal');
}

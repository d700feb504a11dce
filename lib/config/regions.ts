/**
 * AWS regions as the EventBridge-compatible API names them (SPEC §14 "Accounts and groups"): the
 * form of a region name, and the partition its ARNs carry. Pure; used by the configuration
 * (`SCHEDULER_HOME_REGION`), the API's signature check and every ARN the product writes.
 */

/**
 * AWS's region form, per partition (the SDKs' endpoint rules, `partitions.json` `regionRegex`):
 * `us-east-1`, `eu-central-2`, `ap-southeast-4`, `us-gov-west-1`, `cn-north-1`, `us-iso-east-1`…
 * Most specific first: `us-gov-…` is a match of the `aws` form's `us-…-N` too.
 */
const PARTITIONS: readonly { partition: string; form: RegExp }[] = [
  { partition: 'aws-us-gov', form: /^us-gov-[a-z]+-\d+$/ },
  { partition: 'aws-iso', form: /^us-iso-[a-z]+-\d+$/ },
  { partition: 'aws-iso-b', form: /^us-isob-[a-z]+-\d+$/ },
  { partition: 'aws-iso-e', form: /^eu-isoe-[a-z]+-\d+$/ },
  { partition: 'aws-iso-f', form: /^us-isof-[a-z]+-\d+$/ },
  { partition: 'aws-cn', form: /^cn-[a-z]+-\d+$/ },
  { partition: 'aws', form: /^(us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d+$/ },
];

/** The region a scheduler made in the web app or the product API belongs to, when SCHEDULER_HOME_REGION is unset. */
export const DEFAULT_HOME_REGION = 'us-east-1';

/** The partition of `region` (`aws`, `aws-us-gov`, `aws-cn`, …), or null when it is not in AWS's form. */
export function partitionOf(region: string): string | null {
  return PARTITIONS.find((p) => p.form.test(region))?.partition ?? null;
}

/** True when `region` has AWS's form (see `partitionOf`). */
export const isAwsRegion = (region: string): boolean => partitionOf(region) !== null;

/**
 * The partition an ARN in `region` carries: `partitionOf(region)`, else `aws` (a region the product
 * did not validate, such as the AWS SDK's own configuration for the default event).
 */
export const arnPartition = (region: string): string => partitionOf(region) ?? 'aws';

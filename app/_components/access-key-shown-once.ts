/** How a new pair is shown once: the id and the secret, ready for `aws configure` or the environment. */
export function shownOnceAccessKey(accessKeyId: string, secret: string): { label: string; value: string } {
  return { label: `Access key id ${accessKeyId} and its secret access key (as environment variables):`, value: `AWS_ACCESS_KEY_ID=${accessKeyId} AWS_SECRET_ACCESS_KEY=${secret}` };
}

import { randomBytes, randomInt } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * A new access key pair in AWS's shapes: `accessKeyId` = `AKIA` + 16 base32 characters (20 in all),
 * `secretAccessKey` = 40 base64 characters (30 random bytes).
 */
export function generateAccessKeyPair(): { accessKeyId: string; secretAccessKey: string } {
  let id = 'AKIA';
  for (let i = 0; i < 16; i++) id += BASE32[randomInt(32)];
  return { accessKeyId: id, secretAccessKey: randomBytes(30).toString('base64') };
}

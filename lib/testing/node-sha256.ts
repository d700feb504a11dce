/**
 * TEST-ONLY: node:crypto as the hash constructor `@smithy/signature-v4` takes (`sha256`), so tests sign
 * requests exactly as the AWS SDK for JavaScript v3 does (SPEC §14).
 */
import { createHash, createHmac } from 'node:crypto';

type Source = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: Source) => (typeof d === 'string' ? Buffer.from(d, 'utf8') : ArrayBuffer.isView(d) ? Buffer.from(d.buffer, d.byteOffset, d.byteLength) : Buffer.from(d));

/** SHA-256, or HMAC-SHA-256 with `secret`, in the SDK's Checksum shape. */
export class NodeSha256 {
  private readonly h;
  constructor(secret?: Source) {
    this.h = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: Source) {
    this.h.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
}

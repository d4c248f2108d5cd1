import { createHmac } from 'node:crypto';

/** The same lines sent again are the same message, and nobody without the key can tell from an id what they were. */
export function keyedUuid(key: string, text: string): string {
  const bytes = Buffer.from(createHmac('sha256', key).update(text, 'utf8').digest().subarray(0, 16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

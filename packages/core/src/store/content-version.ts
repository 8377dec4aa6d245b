// Why: both reference stores derive a document's version from its bytes, so equal content gives
// equal versions and compare-and-swap is exact; one helper keeps the two stores in agreement.
import { createHash } from 'node:crypto';

/** SHA-256 of `content` as lowercase hex: the version token of the in-memory and directory stores. */
export function contentVersion(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

import { randomUUID } from 'node:crypto';
import type { Lease, LeaseAnswer } from '../shared/core/ports/lease';
import { errorLine } from '../shared/core/errors';
import { blobError, ensureBlobContainer, type BlobCall } from './azure-blob';

/** The Functions host's lock container; the local host keeps its timer locks there too. */
export const HOSTS_CONTAINER = 'azure-webjobs-hosts';

/** Named as the Functions host names its singleton locks. */
export const lockBlob = (hostId: string, functionName: string) => `locks/${hostId}/${functionName}`;

/** `seconds` must be 15 to 60, the Blob service's range; the blob is made empty when missing. */
export function blobLease(call: BlobCall, blob: string, seconds: number): Lease {
  const path = `${HOSTS_CONTAINER}/${blob.split('/').map(encodeURIComponent).join('/')}`;
  let ready = false;
  const prepare = async (): Promise<string | null> => {
    if (ready) return null;
    const made = await ensureBlobContainer(call, HOSTS_CONTAINER);
    if (!made.ok) return made.reason;
    const answer = await call({ method: 'PUT', path, headers: { 'x-ms-blob-type': 'BlockBlob', 'if-none-match': '*' } });
    // 409 and 412 mean it is there already, which is what was wanted.
    if (answer.status !== 201 && answer.status !== 409 && answer.status !== 412)
      return `the lock blob could not be made: ${blobError(answer)}`;
    ready = true;
    return null;
  };
  const lease = async (headers: Record<string, string>, expected: number, leaseId: string): Promise<LeaseAnswer> => {
    try {
      const problem = await prepare();
      if (problem) return { held: false, reason: problem };
      const answer = await call({ method: 'PUT', path, query: { comp: 'lease' }, headers });
      if (answer.status === expected) return { held: true, leaseId };
      if (answer.status === 404) ready = false;
      return { held: false, reason: blobError(answer) };
    } catch (error) {
      return { held: false, reason: errorLine(error) };
    }
  };
  return {
    acquire() {
      const leaseId = randomUUID();
      return lease(
        { 'x-ms-lease-action': 'acquire', 'x-ms-lease-duration': String(seconds), 'x-ms-proposed-lease-id': leaseId },
        201,
        leaseId,
      );
    },
    renew: (leaseId) => lease({ 'x-ms-lease-action': 'renew', 'x-ms-lease-id': leaseId }, 200, leaseId),
    async release(leaseId) {
      await call({
        method: 'PUT',
        path,
        query: { comp: 'lease' },
        headers: { 'x-ms-lease-action': 'release', 'x-ms-lease-id': leaseId },
      }).catch(() => undefined);
    },
  };
}

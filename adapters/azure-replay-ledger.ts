import { z } from 'zod';
import type { ReplayLedger } from '../shared/core/ports/poison';
import { errorLine } from '../shared/core/errors';
import { blobError, ensureBlobContainer, type BlobCall } from './azure-blob';

/** One small blob per replayed message id, its count as digits. */
export const REPLAYS_CONTAINER = 'headcount-replays';

const countText = z
  .string()
  .regex(/^\d{1,6}$/)
  .transform(Number);

/** Written with the ETag read, or only if absent, so two runs cannot both count from the same number. */
export function blobReplayLedger(call: BlobCall): ReplayLedger {
  let container: Promise<{ ok: true } | { ok: false; reason: string }> | null = null;
  const ensure = async () => {
    container ??= ensureBlobContainer(call, REPLAYS_CONTAINER);
    const made = await container;
    if (!made.ok) container = null;
    return made;
  };
  return {
    async read(messageId) {
      try {
        const answer = await call({ method: 'GET', path: `${REPLAYS_CONTAINER}/${encodeURIComponent(messageId)}` });
        if (answer.status === 404) return { ok: true, replays: 0, version: null };
        if (answer.status !== 200) return { ok: false, error: { reason: `the replay count could not be read: ${blobError(answer)}` } };
        const parsed = countText.safeParse(answer.text.trim());
        // An unreadable count is the bound reached: better left in poison than replayed without end.
        if (!parsed.success) return { ok: true, replays: Number.MAX_SAFE_INTEGER, version: answer.header('etag') };
        return { ok: true, replays: parsed.data, version: answer.header('etag') };
      } catch (error) {
        return { ok: false, error: { reason: errorLine(error) } };
      }
    },
    async record(messageId, replays, version) {
      const made = await ensure();
      if (!made.ok) return { ok: false, error: { reason: made.reason } };
      try {
        const condition: Record<string, string> = version === null ? { 'if-none-match': '*' } : { 'if-match': version };
        const answer = await call({
          method: 'PUT',
          path: `${REPLAYS_CONTAINER}/${encodeURIComponent(messageId)}`,
          headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': 'text/plain', ...condition },
          body: String(replays),
        });
        if (answer.status === 201) return { ok: true };
        return { ok: false, error: { reason: `the replay count was not recorded: ${blobError(answer)}` } };
      } catch (error) {
        return { ok: false, error: { reason: errorLine(error) } };
      }
    },
  };
}

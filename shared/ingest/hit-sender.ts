import { randomUUID } from 'node:crypto';
import type { Scheduler } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import type { HitQueue, HitSender, QueueUnavailable } from '../core/ports/queue';
import { MESSAGE_OVERHEAD_BYTES, encodeMessage, fitsOneMessage, toMessages, type QueuedHit } from '../core/message';

export interface HitSenderOptions {
  /** Milliseconds; 0 sends each request alone. */
  windowMs: number;
  /** A batch that reaches it is sent at once. */
  maxHits: number;
}

type Sent = { ok: true } | { ok: false; error: QueueUnavailable };

interface Batch {
  /** A hit is written once, and its message is made of these. */
  written: string[];
  hits: number;
  bytes: number;
  requests: number;
  waiters: Array<(sent: Sent) => void>;
  timer: { cancel(): void } | null;
  /** Its window has ended, and it goes as soon as no other batch is on its way. */
  due: boolean;
}

export interface HitSenderDeps {
  scheduler: Scheduler;
  logger: Logger;
  newId?: () => string;
}

/** Joined by commas without brackets, with the bytes they add to a message as hitBytes counts them. */
interface Written {
  json: string;
  bytes: number;
}

type EnqueueWritten = (hits: readonly QueuedHit[], written: Written) => Promise<Sent>;

function writeHits(hits: readonly QueuedHit[]): Written {
  // One array written at once costs less than its hits one by one, and JSON.stringify writes an array's items exactly
  // as it writes each alone, joined by commas: `[a,b]` is `[` + a + `,` + b + `]`.
  const array = JSON.stringify(hits);
  // Each hit's bytes and one comma: the array's bytes without its two brackets, and one comma more than it holds.
  return { json: array.slice(1, -1), bytes: Buffer.byteLength(array, 'utf8') - 1 };
}

/** The very text encodeMessage makes, without writing the hits again. */
export function encodeWritten(id: string, hits: string): string {
  return Buffer.from(`{"v":1,"id":${JSON.stringify(id)},"hits":[${hits}]}`, 'utf8').toString('base64');
}

/** Several messages are sent hidden and shown once all are there, so a request is enqueued whole or not at all. */
export function sendAlone(
  queue: HitQueue,
  maxHits: number,
  deps: Omit<HitSenderDeps, 'scheduler'>,
): Pick<HitSender, 'enqueue'> & { enqueueWritten: EnqueueWritten } {
  const newId = deps.newId ?? randomUUID;
  // The hits in one message when they fit one (exactly what toMessages makes of them then), else split by toMessages.
  const enqueueWritten: EnqueueWritten = async (hits, written) => {
    const one = hits.length > 0 && hits.length <= maxHits && fitsOneMessage(MESSAGE_OVERHEAD_BYTES + written.bytes);
    const messages = one ? [encodeWritten(newId(), written.json)] : toMessages(hits, newId, maxHits).map(encodeMessage);
    const sent = await queue.sendAll(messages);
    if (!sent.ok)
      deps.logger.warn('hits were not enqueued; the request is answered 503', {
        requests: 1,
        hits: hits.length,
        messages: messages.length,
        reason: sent.error.reason,
      });
    return sent;
  };
  return { enqueueWritten, enqueue: (hits) => enqueueWritten(hits, writeHits(hits)) };
}

/** Group commit: the busier the queue, the fuller the messages, and a lone request waits the window and no more. */
export function hitSender(queue: HitQueue, options: HitSenderOptions, deps: HitSenderDeps): HitSender {
  const alone = sendAlone(queue, options.maxHits, deps);
  const newId = deps.newId ?? randomUUID;
  let open: Batch | null = null;
  let onTheirWay = 0;

  const send = (batch: Batch) => {
    if (open === batch) open = null;
    batch.timer?.cancel();
    onTheirWay += 1;
    const message = encodeWritten(newId(), batch.written.join(','));
    const sending = queue.sendAll([message]).catch((error: unknown): Sent => ({ ok: false, error: { reason: String(error) } }));
    void sending.then((sent) => {
      onTheirWay -= 1;
      if (!sent.ok) {
        deps.logger.warn('hits were not enqueued; every request of the batch is answered 503', {
          requests: batch.requests,
          hits: batch.hits,
          messages: 1,
          reason: sent.error.reason,
        });
      }
      for (const answer of batch.waiters) answer(sent);
      if (open?.due && onTheirWay === 0) send(open);
    });
  };

  const windowEnded = (batch: Batch) => {
    if (open !== batch) return;
    if (onTheirWay === 0) send(batch);
    else batch.due = true;
  };

  return {
    waiting: () => ({ requests: open?.requests ?? 0, hits: open?.hits ?? 0 }),
    enqueue(hits) {
      if (hits.length === 0) return Promise.resolve({ ok: true });
      const written = writeHits(hits);
      const size = written.bytes;
      const byItself = options.windowMs === 0 || hits.length >= options.maxHits || !fitsOneMessage(MESSAGE_OVERHEAD_BYTES + size);
      if (byItself) return alone.enqueueWritten(hits, written);
      if (open && (open.hits + hits.length > options.maxHits || !fitsOneMessage(open.bytes + size))) send(open);
      if (!open) {
        const batch: Batch = { written: [], hits: 0, bytes: MESSAGE_OVERHEAD_BYTES, requests: 0, waiters: [], timer: null, due: false };
        batch.timer = deps.scheduler.after(options.windowMs, () => windowEnded(batch));
        open = batch;
      }
      const batch: Batch = open;
      batch.written.push(written.json);
      batch.hits += hits.length;
      batch.bytes += size;
      batch.requests += 1;
      const answered = new Promise<Sent>((resolve) => batch.waiters.push(resolve));
      if (batch.hits >= options.maxHits) send(batch);
      return answered;
    },
  };
}

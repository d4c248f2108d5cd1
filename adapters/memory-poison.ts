import type { HitQueue } from '../shared/core/ports/queue';
import type { PoisonedMessage, PoisonQueue, ReplayLedger } from '../shared/core/ports/poison';

type Stored = { queueId: string; text: string; receipt: string; hiddenUntil: number };

/** For unit tests, with receipts as the real queue gives. */
export function memoryPoisonQueue(
  texts: readonly string[] = [],
  now: () => number = Date.now,
): PoisonQueue & { texts(): string[]; add(text: string): void } {
  let next = 0;
  const stored: Stored[] = [];
  const add = (text: string) => stored.push({ queueId: `m${next++}`, text, receipt: '', hiddenUntil: 0 });
  texts.forEach(add);
  const find = (message: PoisonedMessage) => stored.findIndex((one) => one.queueId === message.queueId && one.receipt === message.receipt);
  const gone = { ok: false as const, error: { reason: 'the message is not there with that receipt' } };
  return {
    texts: () => stored.map((one) => one.text),
    add,
    async take(count, hideSeconds) {
      const visible = stored.filter((one) => one.hiddenUntil <= now()).slice(0, count);
      for (const one of visible) {
        one.receipt = `r${next++}`;
        one.hiddenUntil = now() + hideSeconds * 1000;
      }
      return { ok: true, messages: visible.map(({ queueId, receipt, text }) => ({ queueId, receipt, text })) };
    },
    async remove(message) {
      const at = find(message);
      if (at < 0) return gone;
      stored.splice(at, 1);
      return { ok: true };
    },
    async release(message) {
      const at = find(message);
      if (at < 0) return gone;
      stored[at]!.hiddenUntil = 0;
      return { ok: true };
    },
  };
}

/** For unit tests: it keeps what it is sent. */
export function memoryHitQueue(): HitQueue & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async sendAll(messages) {
      sent.push(...messages);
      return { ok: true };
    },
  };
}

/** For unit tests, versioned like the blobs. */
export function memoryReplayLedger(): ReplayLedger & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const versions = new Map<string, string>();
  let next = 0;
  return {
    counts,
    async read(messageId) {
      return { ok: true, replays: counts.get(messageId) ?? 0, version: versions.get(messageId) ?? null };
    },
    async record(messageId, replays, version) {
      if ((versions.get(messageId) ?? null) !== version) return { ok: false, error: { reason: 'the count changed since it was read' } };
      counts.set(messageId, replays);
      versions.set(messageId, `v${next++}`);
      return { ok: true };
    },
  };
}

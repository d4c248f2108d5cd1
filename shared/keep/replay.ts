import { readMessage } from '../core/message';
import type { HitQueue } from '../core/ports/queue';
import type { PoisonedMessage, PoisonQueue, ReplayLedger } from '../core/ports/poison';

/**
 * What a replay of one queue's poison needs: its poison queue, the queue it is put back on (the hits queue, or the
 * imports queue: a message goes back to the queue it was poisoned from, never another), the ledger of replays and the
 * bound.
 */
export interface ReplayDeps {
  poison: PoisonQueue;
  queue: HitQueue;
  ledger: ReplayLedger;
  /** A message already put back this many times stays in poison. */
  replayMax: number;
}

/** What one run did, in counts only: a payload is never part of it. */
export interface ReplayOutcome {
  /** Put back on its queue and taken out of poison. */
  moved: number;
  /** Left in poison: the message cannot be read with the message schema. */
  unreadable: number;
  /** Left in poison: replayed `replayMax` times already. */
  overBound: number;
  /** Left in poison for now: the ledger or the queue did not answer (the next run tries again). */
  failed: number;
  /** On its queue but still in poison too (its delete failed): keeping it again is a no-op. */
  notRemoved: number;
  /** Why the run stopped early: the poison queue could not be read. */
  stopped: string | null;
}

/** A queue whose poison replay-poison puts back on it, by the name its log line gives it (`hits`, `imports`). */
export interface PoisonedQueue {
  name: string;
  poison: PoisonQueue;
  queue: HitQueue;
}

/** What replay-poison's run needs: each queue with its poison, and the one ledger and bound they share. */
export interface ReplayEveryDeps extends Pick<ReplayDeps, 'ledger' | 'replayMax'> {
  queues: readonly PoisonedQueue[];
}

/** Messages taken from poison per call, the queue's most. */
const TAKE = 32;
/** The most one run looks at, so a run stays short whatever has piled up; the next run goes on. */
const MOST_PER_RUN = 512;
/** How long a message stays hidden while a run looks at it: longer than a run, so it is seen once per run. */
const HIDE_SECONDS = 300;

type Fate = 'moved' | 'unreadable' | 'overBound' | 'failed' | 'notRemoved';

async function replayOne(deps: ReplayDeps, message: PoisonedMessage): Promise<Fate> {
  const read = readMessage(message.text);
  if (!read.ok) return 'unreadable';
  const id = read.message.id;
  const count = await deps.ledger.read(id);
  if (!count.ok) return 'failed';
  if (count.replays >= deps.replayMax) return 'overBound';
  // The count first: a replay that dies after it has used one of its replays, never one more than the bound.
  const recorded = await deps.ledger.record(id, count.replays + 1, count.version);
  if (!recorded.ok) return 'failed';
  // Sent before it is deleted: a crash between the two duplicates the message (kept once, by its id), never loses it.
  const sent = await deps.queue.sendAll([message.text]);
  if (!sent.ok) return 'failed';
  const removed = await deps.poison.remove(message);
  return removed.ok ? 'moved' : 'notRemoved';
}

/**
 * Puts one queue's readable poison messages back on it, each with the text it had (so its id, and keeping it once),
 * at most `replayMax` times per message id. Unreadable messages, and those over the bound, stay in poison, made
 * visible again at the end of the run. Never throws on a queue or ledger failure: it is counted in the outcome.
 */
export async function replayPoison(deps: ReplayDeps): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { moved: 0, unreadable: 0, overBound: 0, failed: 0, notRemoved: 0, stopped: null };
  const left: PoisonedMessage[] = [];
  let seen = 0;
  while (seen < MOST_PER_RUN) {
    const taken = await deps.poison.take(Math.min(TAKE, MOST_PER_RUN - seen), HIDE_SECONDS);
    if (!taken.ok) {
      outcome.stopped = taken.error.reason;
      break;
    }
    if (taken.messages.length === 0) break;
    seen += taken.messages.length;
    for (const message of taken.messages) {
      const fate = await replayOne(deps, message).catch((): Fate => 'failed');
      outcome[fate] += 1;
      if (fate === 'unreadable' || fate === 'overBound' || fate === 'failed') left.push(message);
    }
  }
  // Shown again only now, so this run does not take them twice; one that cannot be shown shows itself after its hide.
  await Promise.allSettled(left.map((message) => deps.poison.release(message)));
  return outcome;
}

/**
 * replay-poison's run: each queue's poison put back on that queue (the hits queue's and the imports queue's), one queue
 * after the other, by the one replayPoison and the one ledger (a message id is one queue's: a live message's is random,
 * an imported one's keyed from its lines). A queue whose poison cannot be read stops only its own part. Answers each
 * queue's outcome and their sum, whose `stopped` names the queues that stopped.
 */
export async function replayEveryPoison(deps: ReplayEveryDeps): Promise<{ total: ReplayOutcome; queues: Record<string, ReplayOutcome> }> {
  const { queues, ...shared } = deps;
  const total: ReplayOutcome = { moved: 0, unreadable: 0, overBound: 0, failed: 0, notRemoved: 0, stopped: null };
  const each: Record<string, ReplayOutcome> = {};
  const stopped: string[] = [];
  for (const { name, poison, queue } of queues) {
    const outcome = await replayPoison({ ...shared, poison, queue });
    each[name] = outcome;
    for (const fate of ['moved', 'unreadable', 'overBound', 'failed', 'notRemoved'] as const) total[fate] += outcome[fate];
    if (outcome.stopped !== null) stopped.push(`${name}: ${outcome.stopped}`);
  }
  return { total: { ...total, stopped: stopped.length === 0 ? null : stopped.join('; ') }, queues: each };
}

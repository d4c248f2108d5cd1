import { readMessage } from '../core/message';
import type { HitQueue } from '../core/ports/queue';
import type { PoisonedMessage, PoisonQueue, ReplayLedger } from '../core/ports/poison';

/** A message goes back to the queue it was poisoned from, never another. */
export interface ReplayDeps {
  poison: PoisonQueue;
  queue: HitQueue;
  ledger: ReplayLedger;
  replayMax: number;
}

/** Counts only: a payload is never part of it. */
export interface ReplayOutcome {
  moved: number;
  /** Left in poison: the message schema cannot read it. */
  unreadable: number;
  /** Left in poison: replayed `replayMax` times already. */
  overBound: number;
  /** Left in poison for now: the ledger or the queue did not answer. */
  failed: number;
  /** Its delete failed, and keeping it again is a no-op. */
  notRemoved: number;
  /** The poison queue could not be read. */
  stopped: string | null;
}

/** Named as its log line names it: `hits`, `imports`. */
export interface PoisonedQueue {
  name: string;
  poison: PoisonQueue;
  queue: HitQueue;
}

export interface ReplayEveryDeps extends Pick<ReplayDeps, 'ledger' | 'replayMax'> {
  queues: readonly PoisonedQueue[];
}

/** The most one call to the queue takes. */
const TAKE = 32;
/** Keeps a run short whatever has piled up; the next run goes on. */
const MOST_PER_RUN = 512;
/** Longer than a run, so a run sees each message once. */
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
  // Sent before deleted: a crash between the two duplicates the message, kept once by its id, never loses it.
  const sent = await deps.queue.sendAll([message.text]);
  if (!sent.ok) return 'failed';
  const removed = await deps.poison.remove(message);
  return removed.ok ? 'moved' : 'notRemoved';
}

/** Each message keeps its text, so its id keeps it counted once. Never throws on a queue or ledger failure. */
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
  // Released only now, so this run does not take them twice.
  await Promise.allSettled(left.map((message) => deps.poison.release(message)));
  return outcome;
}

/** One queue after the other; a queue whose poison cannot be read stops only its own part. */
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

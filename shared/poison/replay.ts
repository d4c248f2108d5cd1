import { readMessage } from '../hits/message';
import type { HitQueue } from '../ports/queue';
import type { PoisonedMessage, PoisonQueue, ReplayLedger } from '../ports/poison';

/** What a replay needs: the poison queue, the hits queue, the ledger of replays and the bound. */
export interface ReplayDeps {
  poison: PoisonQueue;
  hits: HitQueue;
  ledger: ReplayLedger;
  /** A message already put back this many times stays in poison. */
  replayMax: number;
}

/** What one run did, in counts only: a payload is never part of it. */
export interface ReplayOutcome {
  /** Put back on the hits queue and taken out of poison. */
  moved: number;
  /** Left in poison: the message cannot be read with the message schema. */
  unreadable: number;
  /** Left in poison: replayed `replayMax` times already. */
  overBound: number;
  /** Left in poison for now: the ledger or the hits queue did not answer (the next run tries again). */
  failed: number;
  /** On the hits queue but still in poison too (its delete failed): keeping it again is a no-op. */
  notRemoved: number;
  /** Why the run stopped early: the poison queue could not be read. */
  stopped: string | null;
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
  const sent = await deps.hits.sendAll([message.text]);
  if (!sent.ok) return 'failed';
  const removed = await deps.poison.remove(message);
  return removed.ok ? 'moved' : 'notRemoved';
}

/**
 * Puts readable poison messages back on the hits queue, each with the text it had (so its id, and keeping it once),
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

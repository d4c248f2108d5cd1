import type { HitsMessage } from '../../shared/core/message';
import { keepImported } from '../../shared/keep/imports';
import { keepHits, keepMemory, type KeepOutcome } from '../../shared/keep/keep';
import type { Clock } from '../../shared/core/ports/clock';
import type { ImportKeepingStore, KeepingStore } from '../../shared/core/store';

/** keep-hits' use case over `store`, with a process memory of its own, as the composition root builds it. */
export function keeper(store: KeepingStore, clock: Clock): (message: HitsMessage) => Promise<KeepOutcome> {
  const deps = { store, clock, ...keepMemory() };
  return (message) => keepHits(message, deps);
}

/** keep-imports' use case over `store`, with a process memory of its own. */
export function importKeeper(store: ImportKeepingStore, clock: Clock): (message: HitsMessage) => Promise<KeepOutcome> {
  const deps = { store, clock, ...keepMemory() };
  return (message) => keepImported(message, deps);
}

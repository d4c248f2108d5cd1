import { errorLine } from '../core/errors';
import type { HitsMessage } from '../core/message';
import { keepHits, type KeepDeps, type KeepOutcome } from './keep';
import { dayOf } from './plan';
import type { ImportKeepingStore } from '../core/store';
import { landedNote } from '../core/store/landed-note';

/**
 * keepHits for any day, then one landed note created once the facts are kept, so its watermark is at or after theirs.
 * A retried message ends as one delivery would.
 */
export async function keepImported(message: HitsMessage, deps: KeepDeps & { store: ImportKeepingStore }): Promise<KeepOutcome> {
  const kept = await keepHits(message, { ...deps, anyDay: true });
  if (!kept.ok) return kept;
  try {
    await deps.store.landed.create(
      landedNote(
        message.id,
        message.hits.map((hit) => dayOf(hit.at)),
      ),
    );
    return kept;
  } catch (error) {
    return { ok: false, reason: errorLine(error) };
  }
}

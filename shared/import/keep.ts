import { errorLine } from '../errors';
import type { HitsMessage } from '../hits/message';
import { keeper, type Keeper } from '../keeping/keep';
import { KeptToday } from '../keeping/kept-today';
import { dayOf } from '../keeping/plan';
import type { Clock } from '../ports/clock';
import type { ImportKeepingStore } from '../store';
import { FACT_TTL_SECONDS } from '../store/facts';
import { IMPORTS_PK, landedId, type LandedImport } from '../store/imports';

/** The note that a message's facts are kept, naming their days. */
export const landedNote = (message: string, days: Iterable<string>): LandedImport => ({
  id: landedId(message),
  pk: IMPORTS_PK,
  kind: 'import-landed',
  message,
  days: [...new Set(days)].sort(),
  ttl: FACT_TTL_SECONDS,
});

/**
 * keep-imports' use case: the keeper of keep-hits, taking hits of any day however old, then one landed note for the
 * message, created once its facts are all kept (so the note's mark is at or after theirs). The fold reads the notes to
 * learn which old days have facts to fold (shared/folding/imports.ts). A message retried after any failure ends as one
 * delivery would: its facts and records are kept once, and its note is created once (a create that finds it is done).
 */
export function importKeeper(store: ImportKeepingStore, clock: Clock): Keeper {
  const keep = keeper(store, clock, new KeptToday(), { anyDay: true });
  return async (message: HitsMessage) => {
    const kept = await keep(message);
    if (!kept.ok) return kept;
    try {
      await store.landed.create(
        landedNote(
          message.id,
          message.hits.map((hit) => dayOf(hit.at)),
        ),
      );
      return kept;
    } catch (error) {
      return { ok: false, reason: errorLine(error) };
    }
  };
}

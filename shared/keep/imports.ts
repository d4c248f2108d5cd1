import { errorLine } from '../core/errors';
import type { HitsMessage } from '../core/message';
import { keepHits, type KeepDeps, type KeepOutcome } from './keep';
import { dayOf } from './plan';
import type { ImportKeepingStore } from '../core/store';
import { FACT_TTL_SECONDS } from '../core/store/facts';
import { IMPORTS_PK, landedId, type LandedImport } from '../core/store/imports';

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
 * keep-imports' use case: keepHits, taking hits of any day however old, then one landed note for the
 * message, created once its facts are all kept (so the note's mark is at or after theirs). The fold reads the notes to
 * learn which old days have facts to fold (shared/fold/imports.ts). A message retried after any failure ends as one
 * delivery would: its facts and records are kept once, and its note is created once (a create that finds it is done).
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

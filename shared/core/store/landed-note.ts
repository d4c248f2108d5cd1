import { FACT_TTL_SECONDS } from './facts';
import { IMPORTS_PK, landedId, type LandedImport } from './imports';

/** A message's landed note: its days, kept as long as its facts. */
export const landedNote = (message: string, days: Iterable<string>): LandedImport => ({
  id: landedId(message),
  pk: IMPORTS_PK,
  kind: 'import-landed',
  message,
  days: [...new Set(days)].sort(),
  ttl: FACT_TTL_SECONDS,
});

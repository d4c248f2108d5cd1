/** One scan of a fixture: who (any label), which subject, when (ms from the fixture's start). */
export interface FixtureScan {
  person: string;
  subject: string;
  ms: number;
}

/**
 * Per subject, the figures a fixture of people's scans should give, computed the plain way rather than with the app's
 * code: per visitor, a scan counts when it is at least `refreshMs` after their scan before it and at least `intervalMs`
 * after their last counted one; every visitor with a scan is one unique visitor.
 */
export function plainFigures(
  scans: readonly FixtureScan[],
  refreshMs = 10_000,
  intervalMs = 60_000,
): Map<string, { scans: number; unique: number; repeat: number }> {
  const instants = new Map<string, number[]>();
  for (const scan of scans)
    instants.set(`${scan.subject}|${scan.person}`, [...(instants.get(`${scan.subject}|${scan.person}`) ?? []), scan.ms]);
  const figures = new Map<string, { scans: number; unique: number; repeat: number }>();
  for (const [key, all] of instants) {
    const subject = key.split('|')[0]!;
    let previous = -Infinity;
    let lastCounted = -Infinity;
    let counted = 0;
    for (const ms of [...new Set(all)].sort((a, b) => a - b)) {
      if (ms - previous >= refreshMs && ms - lastCounted >= intervalMs) {
        counted += 1;
        lastCounted = ms;
      }
      previous = ms;
    }
    const kept = figures.get(subject) ?? { scans: 0, unique: 0, repeat: 0 };
    figures.set(subject, { scans: kept.scans + counted, unique: kept.unique + 1, repeat: kept.repeat + counted - 1 });
  }
  return figures;
}
